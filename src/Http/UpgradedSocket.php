<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * What an UpgradeHandler gets: the socket, non-blocking, with no watcher on it; the bytes that
 * followed the request and were read already (the new protocol's first bytes, if the client did
 * not wait for the 101); bytes of the 101 the client has not taken yet, which go out before
 * anything else; the ends of the connection; and what the server's connections share (the clock,
 * the timeout wheel, the logger).
 */
final class UpgradedSocket
{
    /** @param resource $socket */
    public function __construct(
        public readonly mixed $socket,
        public readonly string $readAhead,
        public readonly string $unwritten,
        public readonly Peer $peer,
        public readonly ConnectionServices $services,
        public readonly ConnectionEvents $events,
        public readonly Request $request,
    ) {
    }
}
