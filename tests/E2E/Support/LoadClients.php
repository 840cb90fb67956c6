<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

/**
 * Load from one process: $clients HTTP/1.1 clients on non-blocking sockets, driven by
 * stream_select, each sending GET $path as soon as its previous response is complete.
 *
 * Keep-alive mode reuses a connection until the server closes it or answers "Connection:
 * close", and only sends on a connection the server has not closed (it checks for a pending end
 * of file first). If a request sent on a reused idle connection gets nothing at all back because
 * the server closed that connection at the same moment (the keep-alive race every HTTP client
 * has), it is sent once more on a new connection and counted in $retried. Fresh-connection mode
 * opens a connection per request ("Connection: close") and never retries.
 *
 * $ok counts 200 responses and $failed complete responses other than 200; $socketErrors counts
 * refused connections, connections reset or closed before the response was complete, and
 * timeouts. $errorCounts counts every failure by kind, $latencies holds the time of every 200
 * response (see percentile()), and $records, with $keepRecords, every request.
 *
 * Used by the supervisor end-to-end tests and by benchmarks/reload.php.
 */
final class LoadClients
{
    public int $ok = 0;
    public int $failed = 0;
    public int $socketErrors = 0;
    public int $retried = 0;
    /** Reused connections found closed by the server before a request was sent on them. */
    public int $reconnects = 0;
    /** @var array<int, int> responses by the worker pid named in the body */
    public array $pids = [];
    /** @var list<string> the first errors, with their time, for messages */
    public array $errors = [];
    /** @var array<string, int> how many failures of each kind ("status 503", "no response within 5 s", ...) */
    public array $errorCounts = [];
    /** @var list<float> seconds per successful request */
    public array $latencies = [];
    /** @var list<array{start: float, end: float, status: int, pid: ?int, error: ?string}> */
    public array $records = [];
    private int $started = 0;
    private float $deadline = 0.0;
    /** @var list<array{socket: resource|null, reused: bool, inflight: bool, retry: bool, start: float, buffer: string, wait: float}> */
    private array $clients = [];
    private readonly string $request;

    public function __construct(
        private readonly int $port,
        int $clients,
        private readonly bool $keepAlive,
        string $path = '/',
        private readonly float $requestTimeout = 5.0,
        private readonly bool $keepRecords = false,
    ) {
        for ($i = 0; $i < $clients; ++$i) {
            $this->clients[] = ['socket' => null, 'reused' => false, 'inflight' => false, 'retry' => false, 'start' => 0.0, 'buffer' => '', 'wait' => 0.0];
        }
        $this->request = "GET {$path} HTTP/1.1\r\nHost: 127.0.0.1\r\n" . ($keepAlive ? '' : "Connection: close\r\n") . "\r\n";
    }

    /** Ends the run at $time (microtime) instead of when its duration is over. */
    public function stopAt(float $time): void
    {
        $this->deadline = $time;
    }

    /** Requests answered with a complete response, 200 or not. */
    public function completed(): int
    {
        return $this->ok + $this->failed;
    }

    /** Every request that ended: answered or not. */
    public function total(): int
    {
        return $this->ok + $this->failed + $this->socketErrors;
    }

    /** The latency of 200 responses at percentile $p (0 to 100), in seconds; NAN without any. */
    public function percentile(float $p): float
    {
        if ($this->latencies === []) {
            return \NAN;
        }
        $sorted = $this->latencies;
        \sort($sorted);

        return $sorted[(int) \min(\count($sorted) - 1, \floor($p / 100 * \count($sorted)))];
    }

    public function summary(): string
    {
        return \sprintf(
            '%d requests (%d ok), %d failed, %d socket errors, %d retried, %d reconnects, by pid %s%s',
            $this->total(),
            $this->ok,
            $this->failed,
            $this->socketErrors,
            $this->retried,
            $this->reconnects,
            \json_encode($this->pids),
            $this->errors === [] ? '' : '; first errors: ' . \implode(' | ', $this->errors),
        );
    }

    /**
     * Runs for $duration seconds or until $maxRequests requests have begun, then lets the
     * requests in flight finish. $tick is called every $tickInterval seconds or so (on every
     * turn with 0) with microtime(true).
     *
     * @param (\Closure(float): void)|null $tick
     */
    public function run(float $duration, ?\Closure $tick = null, int $maxRequests = \PHP_INT_MAX, float $tickInterval = 0.01): void
    {
        $this->deadline = \microtime(true) + $duration;
        $nextTick = 0.0;
        while (true) {
            $now = \microtime(true);
            $more = $now < $this->deadline;
            $busy = false;
            foreach ($this->clients as $i => $client) {
                if ($client['inflight']) {
                    $busy = true;
                } elseif ($more && $this->started < $maxRequests && $client['wait'] <= $now) {
                    ++$this->started;
                    $this->begin($i, $now, false);
                    $busy = $busy || $this->clients[$i]['inflight'];
                }
            }
            if (!$busy && (!$more || $this->started >= $maxRequests)) {
                break;
            }
            $read = [];
            foreach ($this->clients as $i => $client) {
                if ($client['inflight'] && $client['socket'] !== null) {
                    $read[$i] = $client['socket'];
                }
            }
            if ($read === []) {
                \usleep(1000);
            } else {
                $write = $except = null;
                if (@\stream_select($read, $write, $except, 0, 10000) === false) {
                    throw new \RuntimeException('stream_select failed');
                }
                foreach (\array_keys($read) as $i) {
                    $this->receive($i, \microtime(true));
                }
            }
            $now = \microtime(true);
            foreach ($this->clients as $i => $client) {
                if ($client['inflight'] && $now - $client['start'] > $this->requestTimeout) {
                    $this->fail($i, $now, 'no response within ' . $this->requestTimeout . ' s');
                }
            }
            if ($tick !== null && $now >= $nextTick) {
                $nextTick = $now + $tickInterval;
                $tick($now);
            }
        }
        foreach ($this->clients as $i => $client) {
            $this->close($i);
        }
    }

    private function begin(int $i, float $now, bool $retry): void
    {
        $client = &$this->clients[$i];
        if (!$retry) {
            $client['start'] = $now;
        }
        $client['retry'] = $retry;
        $client['buffer'] = '';
        if ($client['socket'] !== null && self::closedByServer($client['socket'])) {
            ++$this->reconnects;
            $this->close($i);
        }
        if ($client['socket'] === null) {
            $socket = @\stream_socket_client('tcp://127.0.0.1:' . $this->port, $errno, $error, 2.0);
            if ($socket === false) {
                $client['inflight'] = true;
                $this->fail($i, $now, "cannot connect: {$error} ({$errno})");
                $client['wait'] = $now + 0.01;

                return;
            }
            \stream_set_blocking($socket, false);
            $client['socket'] = $socket;
            $client['reused'] = false;
        }
        $client['inflight'] = true;
        $written = @\fwrite($client['socket'], $this->request);
        if ($written !== \strlen($this->request)) {
            $this->lost($i, $now, 'cannot send the request');
        }
    }

    private function receive(int $i, float $now): void
    {
        $client = &$this->clients[$i];
        if ($client['socket'] === null) {
            return;
        }
        $data = @\fread($client['socket'], 65536);
        if (\is_string($data) && $data !== '') {
            $client['buffer'] .= $data;
            $this->parse($i, $now, false);

            return;
        }
        if ($data === false || \feof($client['socket'])) {
            $this->parse($i, $now, true);
        }
    }

    /** Completes the response when the buffer holds all of it. */
    private function parse(int $i, float $now, bool $closed): void
    {
        $client = &$this->clients[$i];
        $buffer = $client['buffer'];
        $end = \strpos($buffer, "\r\n\r\n");
        if ($end === false) {
            if ($closed) {
                $this->lost($i, $now, $buffer === '' ? 'closed before any byte of the response' : 'closed in the response head');
            }

            return;
        }
        $head = \substr($buffer, 0, $end);
        $body = (string) \substr($buffer, $end + 4);
        if (\preg_match('#^HTTP/1\.[01] (\d{3})#', $head, $m) !== 1) {
            $this->fail($i, $now, 'malformed status line: ' . \substr($head, 0, 80));

            return;
        }
        $status = (int) $m[1];
        $length = \preg_match('/\r\ncontent-length: *(\d+)/i', $head, $lm) === 1 ? (int) $lm[1] : null;
        $chunked = \preg_match('/\r\ntransfer-encoding: *chunked/i', $head) === 1;
        $close = \preg_match('/\r\nconnection: *close/i', $head) === 1;
        if ($length !== null) {
            if (\strlen($body) < $length) {
                if ($closed) {
                    $this->fail($i, $now, 'closed in the middle of the response body');
                }

                return;
            }
            $body = \substr($body, 0, $length);
        } elseif ($chunked) {
            $decoded = self::dechunk($body);
            if ($decoded === null) {
                if ($closed) {
                    $this->fail($i, $now, 'closed in the middle of a chunked body');
                }

                return;
            }
            $body = $decoded;
        } elseif (!$closed) {
            return; // delimited by the end of the connection
        }

        $pid = \preg_match('/"?pid"?[=:] *(\d+)/', $body, $pm) === 1 ? (int) $pm[1] : null;
        if ($pid !== null) {
            $this->pids[$pid] = ($this->pids[$pid] ?? 0) + 1;
        }
        if ($status === 200) {
            ++$this->ok;
            $this->latencies[] = $now - $client['start'];
        } else {
            ++$this->failed;
            $this->note("status {$status}", ': ' . \substr($body, 0, 100));
        }
        $this->record($client['start'], $now, $status, $pid, null);
        $client['inflight'] = false;
        if ($close || $closed || !$this->keepAlive) {
            $this->close($i);
        } else {
            $client['reused'] = true;
        }
    }

    /** The connection ended before the response did: retry a reused idle connection once. */
    private function lost(int $i, float $now, string $why): void
    {
        $client = &$this->clients[$i];
        if ($client['buffer'] === '' && $client['reused'] && !$client['retry']) {
            ++$this->retried;
            $this->close($i);
            $this->begin($i, $now, true);

            return;
        }
        $this->fail($i, $now, $why . ($client['reused'] ? ' (reused connection' . ($client['retry'] ? ', retry' : '') . ')' : ' (new connection)'));
    }

    private function fail(int $i, float $now, string $why): void
    {
        ++$this->socketErrors;
        $this->note($why);
        $this->record($this->clients[$i]['start'], $now, 0, null, $why);
        $this->clients[$i]['inflight'] = false;
        $this->close($i);
    }

    /** Counts a failure of kind $error; the first ones are kept with $detail for messages. */
    private function note(string $error, string $detail = ''): void
    {
        $this->errorCounts[$error] = ($this->errorCounts[$error] ?? 0) + 1;
        if (\count($this->errors) < 10) {
            $this->errors[] = \sprintf('%.3f %s%s', \microtime(true), $error, $detail);
        }
    }

    private function record(float $start, float $end, int $status, ?int $pid, ?string $error): void
    {
        if ($this->keepRecords) {
            $this->records[] = ['start' => $start, 'end' => $end, 'status' => $status, 'pid' => $pid, 'error' => $error];
        }
    }

    private function close(int $i): void
    {
        $client = &$this->clients[$i];
        if ($client['socket'] !== null) {
            @\fclose($client['socket']);
        }
        $client['socket'] = null;
        $client['reused'] = false;
    }

    /** @param resource $socket */
    private static function closedByServer($socket): bool
    {
        $read = [$socket];
        $write = $except = null;
        if (@\stream_select($read, $write, $except, 0) === 0) {
            return false;
        }
        // Readable while idle: the end of the stream (nothing else is expected).
        return true;
    }

    /** The body of a complete chunked message, or null while it is incomplete. */
    private static function dechunk(string $data): ?string
    {
        $body = '';
        $offset = 0;
        while (true) {
            $lineEnd = \strpos($data, "\r\n", $offset);
            if ($lineEnd === false) {
                return null;
            }
            $size = (int) \hexdec(\trim(\explode(';', \substr($data, $offset, $lineEnd - $offset))[0]));
            $offset = $lineEnd + 2;
            if ($size === 0) {
                return \strpos($data, "\r\n", $offset) === false ? null : $body;
            }
            if (\strlen($data) < $offset + $size + 2) {
                return null;
            }
            $body .= \substr($data, $offset, $size);
            $offset += $size + 2;
        }
    }
}
