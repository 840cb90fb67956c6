<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\SessionState;
use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Http\WebSocket\WebSocketSession;

/**
 * A WebSocketSession with an echo app behind it (every text or binary message sent back as it
 * came), reached without a socket: each send() is one receive() of the session.
 */
final class InMemoryEchoTransport implements CaseTransport
{
    public readonly WebSocketSession $session;
    private string $pending = '';
    private bool $dropped = false;

    public function __construct(WebSocketLimits $limits = new WebSocketLimits())
    {
        $this->session = new WebSocketSession($limits);
    }

    public function send(string $bytes): void
    {
        if ($this->dropped || $this->session->state() === SessionState::Closed) {
            return;
        }
        foreach ($this->session->receive($bytes) as $event) {
            if ($this->session->state() !== SessionState::Open) {
                continue;
            }
            if ($event->type === EventType::Text) {
                $this->session->sendText($event->payload);
            } elseif ($event->type === EventType::Binary) {
                $this->session->sendBinary($event->payload);
            }
        }
        $this->pending .= $this->session->takeOutput();
    }

    public function receive(float $timeout): string
    {
        $bytes = $this->pending;
        $this->pending = '';

        return $bytes;
    }

    public function isClosed(): bool
    {
        return $this->pending === '' && $this->session->shouldCloseTransport();
    }

    public function close(): void
    {
        $this->dropped = true;
        $this->session->connectionLost();
    }
}
