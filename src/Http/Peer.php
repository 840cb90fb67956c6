<?php

declare(strict_types=1);

namespace Spindle\Http;

/** The two ends of an accepted connection. */
final class Peer
{
    public function __construct(
        public readonly string $remoteAddress,
        public readonly int $remotePort,
        public readonly string $localAddress,
        public readonly int $localPort,
        /** The connection is TLS (HTTPS): requests on it have Request::$secure. */
        public readonly bool $secure = false,
    ) {
    }

    /** The same ends, over TLS. */
    public function overTls(): self
    {
        return new self($this->remoteAddress, $this->remotePort, $this->localAddress, $this->localPort, true);
    }

    /** From stream_socket_accept()'s peer name ("1.2.3.4:5", "[::1]:5") and the listener's address. */
    public static function accepted(string $peerName, string $localAddress, int $localPort): self
    {
        $colon = (int) \strrpos($peerName, ':');

        return new self(\trim(\substr($peerName, 0, $colon), '[]'), (int) \substr($peerName, $colon + 1), $localAddress, $localPort);
    }
}
