<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Event;

/** A stream whose writer was held back (Http2Session::canSend() was false) may send again. */
final class WindowOpened implements Http2Event
{
    public function __construct(
        public readonly int $streamId,
    ) {
    }
}
