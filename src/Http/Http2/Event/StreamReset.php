<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Event;

use Spindle\Http\Http2\ErrorCode;

/** A stream the driver knows was reset: by the peer ($byPeer), or by us because the peer broke the rules on it. */
final class StreamReset implements Http2Event
{
    public function __construct(
        public readonly int $streamId,
        public readonly ErrorCode $code,
        public readonly bool $byPeer,
    ) {
    }
}
