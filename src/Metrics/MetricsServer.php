<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/**
 * The master's small HTTP listener for `--metrics`: GET /metrics (Prometheus text) and the
 * health paths, answered from the master's own select loop without blocking it.
 *
 * Like ControlServer it never waits: the master adds readStreams() and writeStreams() to its
 * stream_select() and calls poll() with what came back. Each connection carries one request
 * (the answer says "Connection: close"); a request head must arrive within $idleTimeout of the
 * connection (a total, not between reads) and be at most 8 KiB; an answer the client does not read
 * by then is dropped. At most MAX_CLIENTS connections are open: a new one pushes out the oldest
 * that has not sent its request, so idle connections cannot lock out a scrape or a probe.
 */
final class MetricsServer
{
    private const MAX_HEAD = 8192;
    private const MAX_CLIENTS = 32;

    /** @var resource|null */
    private mixed $server;
    /** @var array<int, array{stream: resource, in: string, out: string, deadline: float}> */
    private array $clients = [];
    private int $nextId = 1;
    public readonly string $address;

    /**
     * @param \Closure(string): array{int, string, string} $respond path → [status, content type, body]
     */
    public function __construct(string $address, private readonly \Closure $respond, private readonly float $idleTimeout = 5.0)
    {
        $server = @\stream_socket_server('tcp://' . $address, $errno, $error);
        if ($server === false) {
            throw new \RuntimeException(\sprintf('Cannot listen on %s for --metrics: %s', $address, $error));
        }
        \stream_set_blocking($server, false);
        $this->server = $server;
        $this->address = (string) \stream_socket_get_name($server, false);
    }

    /** @return list<resource> */
    public function readStreams(): array
    {
        if ($this->server === null) {
            return [];
        }
        $streams = [$this->server];
        foreach ($this->clients as $client) {
            if ($client['out'] === '') {
                $streams[] = $client['stream'];
            }
        }

        return $streams;
    }

    /** @return list<resource> */
    public function writeStreams(): array
    {
        $streams = [];
        foreach ($this->clients as $client) {
            if ($client['out'] !== '') {
                $streams[] = $client['stream'];
            }
        }

        return $streams;
    }

    /**
     * @param array<array-key, mixed> $readable
     * @param array<array-key, mixed> $writable
     */
    public function poll(array $readable, array $writable, float $now): void
    {
        $server = $this->server;
        if ($server === null) {
            return;
        }
        $accepted = [];
        if (\in_array($server, $readable, true)) {
            for ($i = 0; $i < self::MAX_CLIENTS; ++$i) {
                $stream = @\stream_socket_accept($server, 0);
                if ($stream === false) {
                    break;
                }
                if (\count($this->clients) >= self::MAX_CLIENTS) {
                    $this->drop($this->oldest());
                }
                \stream_set_blocking($stream, false);
                $id = $this->nextId++;
                $this->clients[$id] = ['stream' => $stream, 'in' => '', 'out' => '', 'deadline' => $now + $this->idleTimeout];
                // A probe sends its request with the connection: answer it now, before later
                // connections can push it out.
                $this->read($id);
                $accepted[$id] = true;
            }
        }
        foreach ($this->clients as $id => $client) {
            if (isset($accepted[$id])) {
                continue;
            }
            if ($client['out'] === '' && \in_array($client['stream'], $readable, true)) {
                $this->read($id);
            } elseif ($client['out'] !== '' && \in_array($client['stream'], $writable, true)) {
                $this->write($id);
            }
        }
        foreach ($this->clients as $id => $client) {
            if ($client['deadline'] <= $now) {
                $this->drop($id);
            }
        }
    }

    public function close(): void
    {
        foreach (\array_keys($this->clients) as $id) {
            $this->drop($id);
        }
        if ($this->server !== null) {
            @\fclose($this->server);
            $this->server = null;
        }
    }

    /**
     * The connection to give up for a new one: the oldest still waiting for its request (an
     * idle connection), else the oldest whose answer is not taken.
     */
    private function oldest(): int
    {
        foreach ($this->clients as $id => $client) {
            if ($client['out'] === '') {
                return $id;
            }
        }

        return (int) \array_key_first($this->clients);
    }

    private function read(int $id): void
    {
        $client = $this->clients[$id];
        $data = @\fread($client['stream'], self::MAX_HEAD);
        if ($data === false || ($data === '' && \feof($client['stream']))) {
            $this->drop($id);

            return;
        }
        $in = $client['in'] . $data;
        $end = \strpos($in, "\r\n\r\n");
        if ($end === false) {
            if (\strlen($in) > self::MAX_HEAD) {
                $this->answer($id, 431, 'text/plain', "Request header too large\n");
            } else {
                $this->clients[$id]['in'] = $in;
            }

            return;
        }
        if (\preg_match('#^([A-Z]+) (\S+) HTTP/1\.[01]\r\n#', $in, $m) !== 1) {
            $this->answer($id, 400, 'text/plain', "Bad request\n");

            return;
        }
        if ($m[1] !== 'GET' && $m[1] !== 'HEAD') {
            $this->answer($id, 405, 'text/plain', "Only GET and HEAD\n");

            return;
        }
        $path = \explode('?', $m[2], 2)[0];
        [$status, $type, $body] = ($this->respond)($path);
        $this->answer($id, $status, $type, $m[1] === 'HEAD' ? '' : $body, \strlen($body));
    }

    private function answer(int $id, int $status, string $type, string $body, ?int $length = null): void
    {
        $reason = match ($status) {
            200 => 'OK', 400 => 'Bad Request', 404 => 'Not Found', 405 => 'Method Not Allowed',
            431 => 'Request Header Fields Too Large', 503 => 'Service Unavailable', default => 'Unknown',
        };
        $this->clients[$id]['out'] = \sprintf(
            "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n%s",
            $status,
            $reason,
            $type,
            $length ?? \strlen($body),
            $body,
        );
        $this->write($id);
    }

    private function write(int $id): void
    {
        $client = $this->clients[$id];
        $written = @\fwrite($client['stream'], $client['out']);
        if ($written === false) {
            $this->drop($id);

            return;
        }
        $out = (string) \substr($client['out'], $written);
        if ($out === '') {
            $this->drop($id);

            return;
        }
        $this->clients[$id]['out'] = $out;
    }

    private function drop(int $id): void
    {
        if (isset($this->clients[$id])) {
            @\fclose($this->clients[$id]['stream']);
            unset($this->clients[$id]);
        }
    }
}
