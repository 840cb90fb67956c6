<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\Pusher;

use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Tests\Support\WebSocket\SocketTransport;

/** A Pusher protocol client for the tests: sends JSON frames, reads the server's as decoded arrays. */
final class PusherTestClient
{
    private readonly FrameParser $parser;
    /** @var list<array<mixed>> */
    private array $received = [];
    public ?int $closeCode = null;
    public string $closeReason = '';

    private function __construct(private readonly SocketTransport $transport)
    {
        $this->parser = FrameParser::forClient(new WebSocketLimits(1 << 20, 1 << 20));
    }

    /** @param array<string, string> $headers more handshake headers (Origin, …) */
    public static function connect(int $port, string $path = '/app/app-key?protocol=7&client=js&version=8.4.0', array $headers = []): self
    {
        return new self(SocketTransport::connect('127.0.0.1', $port, $path, headers: $headers));
    }

    /** @param array<mixed> $frame */
    public function send(array $frame): void
    {
        $this->sendRaw(\json_encode($frame, \JSON_THROW_ON_ERROR));
    }

    public function sendRaw(string $text, int $opcode = 1): void
    {
        $this->transport->send(FrameEncoder::frame($opcode, $text, maskKey: \random_bytes(4)));
    }

    /**
     * The next frame from the server (decoded JSON), waiting up to $timeout seconds; null when none came.
     *
     * @return array<mixed>|null
     */
    public function next(float $timeout = 3.0): ?array
    {
        $deadline = \microtime(true) + $timeout;
        while ($this->received === [] && $this->closeCode === null) {
            $left = $deadline - \microtime(true);
            if ($left <= 0) {
                return null;
            }
            $bytes = $this->transport->receive(\min($left, 0.2));
            if ($bytes === '' && $this->transport->isClosed()) {
                $this->closeCode ??= 1006;
                break;
            }
            foreach ($this->parser->push($bytes) as $event) {
                if ($event->type === EventType::Text) {
                    $decoded = \json_decode($event->payload, true, 64, \JSON_THROW_ON_ERROR);
                    \assert(\is_array($decoded));
                    $this->received[] = $decoded;
                } elseif ($event->type === EventType::Close) {
                    $this->closeCode = $event->closeCode;
                    $this->closeReason = $event->payload;
                }
            }
        }

        return \array_shift($this->received);
    }

    /** Waits for the close frame (or the connection's end) and returns its code. */
    public function waitForClose(float $timeout = 3.0): ?int
    {
        $deadline = \microtime(true) + $timeout;
        while ($this->closeCode === null && \microtime(true) < $deadline) {
            $this->next(\max(0.01, $deadline - \microtime(true)));
        }

        return $this->closeCode;
    }

    /** Reads pusher:connection_established and returns the socket id. */
    public function established(): string
    {
        $frame = $this->next();
        if (($frame['event'] ?? null) !== 'pusher:connection_established' || !\is_string($frame['data'] ?? null)) {
            throw new \RuntimeException('No pusher:connection_established: ' . \json_encode($frame));
        }
        $data = \json_decode($frame['data'], true, 8, \JSON_THROW_ON_ERROR);
        \assert(\is_array($data) && \is_string($data['socket_id']));

        return $data['socket_id'];
    }

    /** A header of the server's 101, or null. */
    public function header(string $name): ?string
    {
        return $this->transport->headers[\strtolower($name)][0] ?? null;
    }

    public function close(): void
    {
        $this->transport->close();
    }
}
