<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

/**
 * A plain TCP client for end-to-end tests: sends exactly the bytes it is given and parses
 * responses off the wire (Content-Length, chunked, or delimited by close), every wait bounded
 * by a timeout. Bytes after a parsed response stay buffered for the next one (pipelining).
 */
final class RawClient
{
    /** @var resource */
    private $socket;
    private string $buffer = '';
    private bool $eof = false;
    /**
     * The response being parsed, while its body arrives.
     *
     * @var array{protocol: string, status: int, reason: string, headers: array<string, list<string>>, head: string, mode: string, remaining: int, pieces: list<string>}|null
     */
    private ?array $partial = null;

    public function __construct(int $port, private readonly float $timeout = 5.0)
    {
        $socket = @\stream_socket_client('tcp://127.0.0.1:' . $port, $errno, $error, $timeout);
        if ($socket === false) {
            throw new \RuntimeException(\sprintf('Cannot connect to 127.0.0.1:%d: %s (%d)', $port, $error, $errno));
        }
        \stream_set_blocking($socket, false);
        // Without this, each fread() returns at most one 8 KiB chunk.
        \stream_set_read_buffer($socket, 0);
        \stream_set_chunk_size($socket, 1048576);
        $this->socket = $socket;
    }

    /** Tries to connect; null when the connection is refused. */
    public static function tryConnect(int $port, float $timeout = 2.0): ?self
    {
        try {
            return new self($port, $timeout);
        } catch (\RuntimeException) {
            return null;
        }
    }

    public function __destruct()
    {
        $this->close();
    }

    /** @return resource */
    public function socket()
    {
        return $this->socket;
    }

    public function send(string $bytes, ?float $timeout = null): void
    {
        $deadline = \microtime(true) + ($timeout ?? $this->timeout);
        while ($bytes !== '') {
            $written = @\fwrite($this->socket, $bytes);
            if ($written === false) {
                throw new \RuntimeException('Cannot write to the server: the connection is closed');
            }
            $bytes = (string) \substr($bytes, $written);
            if ($bytes === '') {
                return;
            }
            $left = $deadline - \microtime(true);
            if ($left <= 0) {
                throw new \RuntimeException('Timed out writing to the server');
            }
            $read = $except = null;
            $write = [$this->socket];
            @\stream_select($read, $write, $except, (int) $left, (int) (($left - (int) $left) * 1e6));
        }
    }

    /**
     * Reads and parses the next response (an interim 1xx response counts as one).
     *
     * @param (\Closure(string): void)|null $sink receives the decoded body piece by piece instead
     *                                          of the response keeping it (for large bodies)
     */
    public function readResponse(bool $forHead = false, ?float $timeout = null, ?\Closure $sink = null): RawResponse
    {
        $deadline = \microtime(true) + ($timeout ?? $this->timeout);
        while (true) {
            $response = $this->parse($forHead, $sink);
            if ($response !== null) {
                return $response;
            }
            if ($this->eof) {
                throw new \RuntimeException('The server closed the connection before a full response; got: ' . \json_encode(\substr($this->buffer, 0, 500)));
            }
            if (!$this->fill($deadline)) {
                throw new \RuntimeException('Timed out waiting for a response; got: ' . \json_encode(\substr($this->buffer, 0, 500)));
            }
        }
    }

    /**
     * Waits until the server closes the connection; returns whether it did within $timeout.
     * Whatever arrives meanwhile is kept (see buffered()).
     */
    public function waitForClose(float $timeout): bool
    {
        $deadline = \microtime(true) + $timeout;
        while (!$this->eof) {
            if (!$this->fill($deadline)) {
                return false;
            }
        }

        return true;
    }

    /** Reads until the server closes the connection and returns all unparsed bytes. */
    public function readUntilClosed(?float $timeout = null): string
    {
        if (!$this->waitForClose($timeout ?? $this->timeout)) {
            throw new \RuntimeException('Timed out waiting for the server to close the connection');
        }
        $all = $this->buffer;
        $this->buffer = '';

        return $all;
    }

    /** Waits until at least $bytes unparsed bytes are buffered (or the connection closes). */
    public function waitForBytes(int $bytes, float $timeout): bool
    {
        $deadline = \microtime(true) + $timeout;
        while (\strlen($this->buffer) < $bytes && !$this->eof) {
            if (!$this->fill($deadline)) {
                return false;
            }
        }

        return \strlen($this->buffer) >= $bytes;
    }

    /** Waits until the unparsed bytes contain $needle; returns whether they did in time. */
    public function waitFor(string $needle, float $timeout): bool
    {
        $deadline = \microtime(true) + $timeout;
        while (!\str_contains($this->buffer, $needle) && !$this->eof) {
            if (!$this->fill($deadline)) {
                return false;
            }
        }

        return \str_contains($this->buffer, $needle);
    }

    /** Received bytes that no readResponse() has consumed yet. */
    public function buffered(): string
    {
        return $this->buffer;
    }

    public function isClosedByServer(): bool
    {
        return $this->eof;
    }

    public function close(): void
    {
        if (\is_resource($this->socket)) {
            \fclose($this->socket);
        }
    }

    /** Reads once; false when the deadline passed without any data or close. */
    private function fill(float $deadline): bool
    {
        $left = $deadline - \microtime(true);
        if ($left <= 0) {
            return false;
        }
        $read = [$this->socket];
        $write = $except = null;
        $ready = @\stream_select($read, $write, $except, (int) $left, (int) (($left - (int) $left) * 1e6));
        if ($ready === false) {
            throw new \RuntimeException('stream_select failed');
        }
        if ($ready === 0) {
            return $deadline - \microtime(true) > 0;
        }
        $data = @\fread($this->socket, 1048576);
        if ($data === false || ($data === '' && \feof($this->socket))) {
            $this->eof = true;

            return true;
        }
        $this->buffer .= $data;

        return true;
    }

    /**
     * Advances the response being parsed with the buffered bytes, consuming them; returns the
     * response once it is complete. Body bytes leave the buffer as they are decoded, so a large
     * body never sits in one ever-growing string.
     *
     * @param (\Closure(string): void)|null $sink
     */
    private function parse(bool $forHead, ?\Closure $sink): ?RawResponse
    {
        if ($this->partial === null) {
            $end = \strpos($this->buffer, "\r\n\r\n");
            if ($end === false) {
                return null;
            }
            $head = \substr($this->buffer, 0, $end + 4);
            $this->buffer = (string) \substr($this->buffer, $end + 4);
            $lines = \explode("\r\n", \substr($head, 0, $end));
            if (\preg_match('#^HTTP/(\d\.\d) (\d{3}) ?(.*)$#D', $lines[0], $m) !== 1) {
                throw new \RuntimeException('Malformed status line: ' . \json_encode($lines[0]));
            }
            $status = (int) $m[2];
            $headers = [];
            foreach (\array_slice($lines, 1) as $line) {
                $colon = \strpos($line, ':');
                if ($colon === false) {
                    throw new \RuntimeException('Malformed header line: ' . \json_encode($line));
                }
                $headers[\strtolower(\substr($line, 0, $colon))][] = \trim(\substr($line, $colon + 1));
            }
            if ($forHead || ($status >= 100 && $status < 200) || $status === 204 || $status === 304) {
                $mode = 'none';
            } elseif (isset($headers['transfer-encoding'])) {
                $mode = 'chunk-size';
            } elseif (isset($headers['content-length'])) {
                $mode = 'length';
            } else {
                $mode = 'close';
            }
            $this->partial = [
                'protocol' => $m[1], 'status' => $status, 'reason' => $m[3], 'headers' => $headers, 'head' => $head,
                'mode' => $mode, 'remaining' => (int) ($headers['content-length'][0] ?? 0), 'pieces' => [],
            ];
        }
        $p = &$this->partial;
        while (true) {
            switch ($p['mode']) {
                case 'none':
                    break 2;
                case 'length':
                case 'chunk-data':
                    $take = \min($p['remaining'], \strlen($this->buffer));
                    if ($take > 0) {
                        $piece = \substr($this->buffer, 0, $take);
                        if ($sink !== null) {
                            $sink($piece);
                        } else {
                            $p['pieces'][] = $piece;
                        }
                        $this->buffer = (string) \substr($this->buffer, $take);
                        $p['remaining'] -= $take;
                    }
                    if ($p['remaining'] > 0) {
                        return null;
                    }
                    if ($p['mode'] === 'length') {
                        break 2;
                    }
                    $p['mode'] = 'chunk-crlf';
                    break;
                case 'chunk-crlf':
                    if (\strlen($this->buffer) < 2) {
                        return null;
                    }
                    $this->buffer = (string) \substr($this->buffer, 2);
                    $p['mode'] = 'chunk-size';
                    break;
                case 'chunk-size':
                    $lineEnd = \strpos($this->buffer, "\r\n");
                    if ($lineEnd === false) {
                        return null;
                    }
                    $size = (int) \hexdec(\trim(\explode(';', \substr($this->buffer, 0, $lineEnd))[0]));
                    $this->buffer = (string) \substr($this->buffer, $lineEnd + 2);
                    $p['remaining'] = $size;
                    $p['mode'] = $size === 0 ? 'trailer' : 'chunk-data';
                    break;
                case 'trailer':
                    $lineEnd = \strpos($this->buffer, "\r\n");
                    if ($lineEnd === false) {
                        return null;
                    }
                    $this->buffer = (string) \substr($this->buffer, $lineEnd + 2);
                    if ($lineEnd === 0) {
                        break 2;
                    }
                    break;
                default: // 'close'
                    if ($sink !== null) {
                        $sink($this->buffer);
                    } else {
                        $p['pieces'][] = $this->buffer;
                    }
                    $this->buffer = '';
                    if (!$this->eof) {
                        return null;
                    }
                    break 2;
            }
        }
        unset($p);
        $done = $this->partial;
        \assert($done !== null);
        $this->partial = null;
        $body = \implode('', $done['pieces']);

        return new RawResponse($done['protocol'], $done['status'], $done['reason'], $done['headers'], $body, $done['head'] . $body);
    }
}
