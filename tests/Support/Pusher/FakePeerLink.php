<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\Pusher;

use Spindle\Server\Peers\PeerLink;

/** A PeerLink whose peers are the test: what is sent is kept, deliver() and gone() play the peers. */
final class FakePeerLink implements PeerLink
{
    /** @var list<string> */
    public array $sent = [];
    /** @var list<array{\Closure(string, string): void, \Closure(string): void}> */
    private array $receivers = [];

    public function origin(): string
    {
        return 'me';
    }

    public function send(string $message): void
    {
        $this->sent[] = $message;
    }

    public function listen(\Closure $onMessage, \Closure $onGone, ?\Closure $onClose = null): void
    {
        $this->receivers[] = [$onMessage, $onGone];
    }

    public function close(): void
    {
    }

    public function isConnected(): bool
    {
        return true;
    }

    public function deliver(string $origin, string $message): void
    {
        foreach ($this->receivers as [$onMessage]) {
            $onMessage($origin, $message);
        }
    }

    public function gone(string $origin): void
    {
        foreach ($this->receivers as [, $onGone]) {
            $onGone($origin);
        }
    }
}
