<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Event;

use Spindle\Http\Http2\ErrorCode;

/** The session ended the connection with GOAWAY($code): write takeOutput() and close. */
final class ConnectionError implements Http2Event
{
    public function __construct(
        public readonly ErrorCode $code,
        public readonly string $reason,
    ) {
    }
}
