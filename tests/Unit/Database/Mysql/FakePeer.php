<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Mysql;

use Revolt\EventLoop;

/** The server side of one fake connection: whole packets in, raw bytes out. */
final class FakePeer
{
    private string $buffer = '';
    private bool $closed = false;

    /** @param resource $socket */
    public function __construct(private $socket, private readonly FakeServer $server)
    {
    }

    public function send(string $bytes): void
    {
        while ($bytes !== '' && !$this->closed) {
            $written = @fwrite($this->socket, $bytes);
            if ($written === false) {
                return;
            }
            $bytes = substr($bytes, $written);
            if ($bytes !== '') {
                $this->wait(true);
            }
        }
    }

    /** The next packet's payload, or null once the client closed the connection. */
    public function readPacket(): ?string
    {
        while (true) {
            if (\strlen($this->buffer) >= 4) {
                $length = \ord($this->buffer[0]) | \ord($this->buffer[1]) << 8 | \ord($this->buffer[2]) << 16;
                if (\strlen($this->buffer) >= 4 + $length) {
                    $payload = substr($this->buffer, 4, $length);
                    $this->buffer = substr($this->buffer, 4 + $length);

                    return $payload;
                }
            }
            if ($this->closed) {
                return null;
            }
            $data = @fread($this->socket, 65536);
            if ($data === false || ($data === '' && feof($this->socket))) {
                return null;
            }
            if ($data === '') {
                $this->wait(false);
                continue;
            }
            $this->buffer .= $data;
        }
    }

    public function close(): void
    {
        if (!$this->closed) {
            $this->closed = true;
            @fclose($this->socket);
        }
    }

    private function wait(bool $write): void
    {
        $suspension = EventLoop::getSuspension();
        $wake = static function (string $id) use ($suspension): void {
            EventLoop::cancel($id);
            $suspension->resume();
        };
        $id = $write ? EventLoop::onWritable($this->socket, $wake) : EventLoop::onReadable($this->socket, $wake);
        $this->server->track($id);
        $suspension->suspend();
    }
}
