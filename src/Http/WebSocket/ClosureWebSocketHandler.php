<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/** A WebSocketHandler made of closures (any of them may be left out). */
final class ClosureWebSocketHandler implements WebSocketHandler
{
    /**
     * @param (\Closure(WebSocket, string, bool): void)|null $onMessage
     * @param (\Closure(WebSocket): void)|null $onOpen
     * @param (\Closure(WebSocket, int, string): void)|null $onClose
     */
    public function __construct(
        private readonly ?\Closure $onMessage = null,
        private readonly ?\Closure $onOpen = null,
        private readonly ?\Closure $onClose = null,
    ) {
    }

    public function onOpen(WebSocket $socket): void
    {
        if ($this->onOpen !== null) {
            ($this->onOpen)($socket);
        }
    }

    public function onMessage(WebSocket $socket, string $message, bool $binary): void
    {
        if ($this->onMessage !== null) {
            ($this->onMessage)($socket, $message, $binary);
        }
    }

    public function onClose(WebSocket $socket, int $code, string $reason): void
    {
        if ($this->onClose !== null) {
            ($this->onClose)($socket, $code, $reason);
        }
    }
}
