<?php

declare(strict_types=1);

namespace Spindle\Server\Peers;

/** The link of a process without peers (one worker, a test, a process outside a server): nothing to send, nothing arrives. */
final class NoPeers implements PeerLink
{
    private readonly string $origin;

    public function __construct()
    {
        $this->origin = Origin::make();
    }

    public function origin(): string
    {
        return $this->origin;
    }

    public function send(string $message): void
    {
    }

    public function listen(\Closure $onMessage, \Closure $onGone, ?\Closure $onClose = null): void
    {
    }

    public function close(): void
    {
    }

    public function isConnected(): bool
    {
        return false;
    }
}
