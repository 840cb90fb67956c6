<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Event;

use Spindle\Http\Http2\ErrorCode;

/** The peer is ending the connection: no new streams will come; streams up to ours go on. */
final class GoAwayReceived implements Http2Event
{
    public function __construct(
        public readonly int $lastStreamId,
        public readonly ErrorCode $code,
        public readonly string $debug,
    ) {
    }
}
