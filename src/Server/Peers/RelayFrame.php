<?php

declare(strict_types=1);

namespace Spindle\Server\Peers;

/** One frame of the master's relay, decoded (RelayCodec). */
final class RelayFrame
{
    public function __construct(
        public readonly RelayKind $kind,
        public readonly string $payload,
        /** The frame as it travels, so that the master can pass it on without encoding it again. */
        public readonly string $bytes,
    ) {
    }
}
