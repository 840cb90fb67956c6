<?php

declare(strict_types=1);

namespace Spindle\Bridge\Peers;

use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Redis\RedisClient;
use Spindle\Redis\Subscription;
use Spindle\Server\Peers\PeerLink;

/**
 * The link of a worker to every worker of every host, through Redis pub/sub: each worker
 * publishes on one Redis channel and subscribes to it. A message there is the sender's origin, a
 * kind (`m` message, `b` heartbeat, `g` gone) and the payload, separated by newlines.
 *
 * Peers are known by their messages: each worker sends a heartbeat every $heartbeat seconds, and
 * a peer silent for three of them is gone (its host died or lost Redis). A worker that stops says
 * so (`g` with its own origin); a worker of this host that dies is reported by the master's relay
 * ($local) and announced on Redis by its siblings, so that other hosts need not wait for the
 * heartbeats to lapse. Publishing runs in a fiber of its own, in order; send() never waits.
 */
final class RedisPeerLink implements PeerLink
{
    /** @var list<array{\Closure(string, string): void, \Closure(string): void, (\Closure(): void)|null}> */
    private array $receivers = [];
    /** @var array<string, float> peer origin => when it was last heard from */
    private array $peers = [];
    /** @var list<string> what waits to be published */
    private array $outbox = [];
    private ?\Closure $wakePublisher = null;
    private bool $closed = false;
    /** Subscribed: publishing starts then, so that no answer to this worker's first messages is missed. */
    private bool $subscribed = false;
    private ?Subscription $subscription = null;
    private readonly string $heartbeatTimer;
    /** Messages waiting to be published past which new ones are dropped (Redis unreachable for long). */
    private const MAX_OUTBOX = 100_000;
    /** Messages that could not be published (Redis unreachable). */
    public int $failed = 0;

    public function __construct(
        private readonly RedisClient $redis,
        private readonly string $channel,
        /** The master's relay of this host (for its origin and its reports of dead siblings). */
        private readonly PeerLink $local,
        private readonly float $heartbeat = 2.0,
    ) {
        $local->listen(static fn () => null, $this->localPeerGone(...), $this->close(...));
        Loop::startChild(new Context('Pusher fan-out: Redis publisher'), $this->publish(...));
        Loop::startChild(new Context('Pusher fan-out: Redis subscriber'), $this->subscribe(...));
        $this->heartbeatTimer = EventLoop::unreference(EventLoop::repeat($heartbeat, $this->beat(...)));
        $this->queue('b', '');
    }

    public function origin(): string
    {
        return $this->local->origin();
    }

    public function send(string $message): void
    {
        $this->queue('m', $message);
    }

    public function listen(\Closure $onMessage, \Closure $onGone, ?\Closure $onClose = null): void
    {
        $this->receivers[] = [$onMessage, $onGone, $onClose];
    }

    public function isConnected(): bool
    {
        return !$this->closed;
    }

    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->queue('g', $this->origin());
        $this->closed = true;
        EventLoop::cancel($this->heartbeatTimer);
        $this->subscription?->close();
        $this->wakePublisher();
        foreach ($this->receivers as [, , $onClose]) {
            if ($onClose !== null) {
                $onClose();
            }
        }
    }

    private function queue(string $kind, string $payload): void
    {
        if ($this->closed) {
            return;
        }
        if (\count($this->outbox) >= self::MAX_OUTBOX) {
            ++$this->failed;

            return;
        }
        $this->outbox[] = $this->origin() . "\n" . $kind . "\n" . $payload;
        $this->wakePublisher();
    }

    private function wakePublisher(): void
    {
        if ($this->wakePublisher !== null) {
            [$wake, $this->wakePublisher] = [$this->wakePublisher, null];
            $wake();
        }
    }

    /** The publisher's fiber: what queue() took, in order, until the link closes and its outbox is empty. */
    private function publish(): void
    {
        while (true) {
            while ($this->outbox !== [] && ($this->subscribed || $this->closed)) {
                $message = \array_shift($this->outbox);
                try {
                    $this->redis->execute('PUBLISH', $this->channel, $message);
                } catch (\Throwable) {
                    ++$this->failed;
                }
            }
            if ($this->closed && $this->outbox === []) {
                return;
            }
            $suspension = EventLoop::getSuspension();
            $this->wakePublisher = static fn () => $suspension->resume();
            $suspension->suspend();
        }
    }

    /** The subscriber's fiber: Redis's messages until the link closes; a lost connection is made again after a second. */
    private function subscribe(): void
    {
        while (!$this->closed) {
            try {
                $subscription = $this->subscription = $this->redis->subscribe($this->channel);
                if (!$this->isConnected()) {
                    $subscription->close();

                    return;
                }
                $this->subscribed = true;
                $this->wakePublisher();
                foreach ($subscription as $message) {
                    $this->received($message->payload);
                }
            } catch (\Throwable) {
                // Redis is unreachable: the heartbeats lapse on both sides until it is back.
            }
            if (!$this->closed) {
                $suspension = EventLoop::getSuspension();
                EventLoop::unreference(EventLoop::delay(1.0, static fn () => $suspension->resume()));
                $suspension->suspend();
            }
        }
    }

    private function received(string $raw): void
    {
        $parts = \explode("\n", $raw, 3);
        if (\count($parts) !== 3 || $parts[0] === $this->origin()) {
            return;
        }
        [$origin, $kind, $payload] = $parts;
        if ($kind === 'g') {
            $this->peerGone($payload);

            return;
        }
        $this->peers[$origin] = \microtime(true);
        if ($kind === 'm') {
            foreach ($this->receivers as [$onMessage]) {
                $onMessage($origin, $payload);
            }
        }
    }

    private function beat(): void
    {
        $this->queue('b', '');
        $now = \microtime(true);
        foreach ($this->peers as $origin => $seen) {
            if ($now - $seen > 3 * $this->heartbeat) {
                $this->peerGone((string) $origin);
            }
        }
    }

    /** A sibling on this host died: tell the other hosts, then drop it here. */
    private function localPeerGone(string $origin): void
    {
        $this->queue('g', $origin);
        $this->peerGone($origin);
    }

    private function peerGone(string $origin): void
    {
        if ($origin === $this->origin()) {
            return;
        }
        unset($this->peers[$origin]);
        foreach ($this->receivers as [, $onGone]) {
            $onGone($origin);
        }
    }
}
