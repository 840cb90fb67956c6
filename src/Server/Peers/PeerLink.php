<?php

declare(strict_types=1);

namespace Spindle\Server\Peers;

/**
 * A worker's link to its peers: the other workers of its server and, when the link goes through
 * Redis, the workers of other hosts. What one peer sends, every other peer receives, in the order
 * it was sent (no order between different senders); nothing comes back to the sender. A peer that
 * ends (its process exits, its heartbeats stop) is reported gone once.
 *
 * Messages are opaque strings: the protocol above (Bridge\Pusher\PusherServer's fan-out) gives
 * them meaning. Sending never waits; a peer that cannot take more is skipped rather than waited
 * for.
 */
interface PeerLink
{
    /** This process's name among its peers (unique across hosts and generations of workers). */
    public function origin(): string;

    /** Sends $message to every other peer. */
    public function send(string $message): void;

    /**
     * Adds a receiver: $onMessage gets what another peer sent (its origin and the message),
     * $onGone the origin of a peer that ended, $onClose is called once this link closes. Called
     * from the event loop.
     *
     * @param \Closure(string, string): void $onMessage
     * @param \Closure(string): void $onGone
     * @param (\Closure(): void)|null $onClose
     */
    public function listen(\Closure $onMessage, \Closure $onGone, ?\Closure $onClose = null): void;

    /** This process leaves its peers (the worker stops): they drop what it had; nothing more is sent or received. */
    public function close(): void;

    /** Whether this process has peers to reach at all (false: a single process, nothing is sent). */
    public function isConnected(): bool;
}
