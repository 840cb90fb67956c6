<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use Revolt\EventLoop;

/**
 * A small HTTP/1.1 client for in-process tests: it runs in a loop fiber next to the server, so
 * every wait suspends (with a time limit) instead of blocking the loop.
 */
final class LoopClient
{
    private string $buffer = '';
    private bool $eof = false;

    /** @param resource $socket */
    private function __construct(private readonly mixed $socket)
    {
    }

    public static function connect(int $port): self
    {
        $socket = @\stream_socket_client('tcp://127.0.0.1:' . $port, $errno, $error, 1.0);
        if ($socket === false) {
            throw new \RuntimeException(\sprintf('Cannot connect to port %d: %s', $port, $error));
        }
        \stream_set_blocking($socket, false);

        return new self($socket);
    }

    public function send(string $data): void
    {
        while ($data !== '') {
            $written = @\fwrite($this->socket, $data);
            if ($written === false) {
                throw new \RuntimeException('The server closed the connection');
            }
            $data = (string) \substr($data, $written);
            if ($data !== '') {
                $this->wait(0.01);
            }
        }
    }

    public function get(string $path): void
    {
        $this->send("GET {$path} HTTP/1.1\r\nHost: test\r\n\r\n");
    }

    /** The next response, or null if the connection closed or $timeout passed first. */
    public function readResponse(float $timeout = 2.0): ?ClientResponse
    {
        $deadline = \microtime(true) + $timeout;
        while (($end = \strpos($this->buffer, "\r\n\r\n")) === false) {
            if (!$this->fill($deadline)) {
                return null;
            }
        }
        $lines = \explode("\r\n", \substr($this->buffer, 0, $end));
        $this->buffer = (string) \substr($this->buffer, $end + 4);
        $status = (int) \explode(' ', (string) \array_shift($lines))[1];
        $headers = [];
        foreach ($lines as $line) {
            [$name, $value] = \explode(':', $line, 2);
            $headers[\strtolower($name)] = \trim($value);
        }
        if (isset($headers['content-length'])) {
            $length = (int) $headers['content-length'];
            while (\strlen($this->buffer) < $length) {
                if (!$this->fill($deadline)) {
                    return null;
                }
            }
            $body = \substr($this->buffer, 0, $length);
            $this->buffer = (string) \substr($this->buffer, $length);

            return new ClientResponse($status, $headers, $body);
        }

        return new ClientResponse($status, $headers, '');
    }

    /** The next chunk of a chunked body ('' for the last one), or null on close or timeout. */
    public function readChunk(float $timeout = 2.0): ?string
    {
        $deadline = \microtime(true) + $timeout;
        while (true) {
            $end = \strpos($this->buffer, "\r\n");
            if ($end !== false) {
                $size = (int) \hexdec(\substr($this->buffer, 0, $end));
                if (\strlen($this->buffer) >= $end + 2 + $size + 2) {
                    $chunk = \substr($this->buffer, $end + 2, $size);
                    $this->buffer = (string) \substr($this->buffer, $end + 2 + $size + 2);

                    return $chunk;
                }
            }
            if (!$this->fill($deadline)) {
                return null;
            }
        }
    }

    /** Whether the server closed the connection within $timeout (unread data is kept). */
    public function waitForClose(float $timeout): bool
    {
        $deadline = \microtime(true) + $timeout;
        while ($this->fill($deadline)) {
            // Keep what arrives.
        }

        return $this->eof;
    }

    public function buffered(): string
    {
        return $this->buffer;
    }

    public function close(): void
    {
        if (\is_resource($this->socket)) {
            \fclose($this->socket);
        }
    }

    /** Reads what arrives before $deadline; false on timeout or end of stream. */
    private function fill(float $deadline): bool
    {
        if ($this->eof) {
            return false;
        }
        $left = $deadline - \microtime(true);
        if ($left <= 0 || !$this->waitReadable($left)) {
            return false;
        }
        $data = @\fread($this->socket, 65536);
        if ($data === false || ($data === '' && \feof($this->socket))) {
            $this->eof = true;

            return false;
        }
        $this->buffer .= $data;

        return true;
    }

    private function waitReadable(float $seconds): bool
    {
        $suspension = EventLoop::getSuspension();
        $readId = EventLoop::onReadable($this->socket, static fn () => $suspension->resume(true));
        $timerId = EventLoop::delay($seconds, static fn () => $suspension->resume(false));
        try {
            return (bool) $suspension->suspend();
        } finally {
            EventLoop::cancel($readId);
            EventLoop::cancel($timerId);
        }
    }

    private function wait(float $seconds): void
    {
        $suspension = EventLoop::getSuspension();
        EventLoop::delay($seconds, static fn () => $suspension->resume());
        $suspension->suspend();
    }
}
