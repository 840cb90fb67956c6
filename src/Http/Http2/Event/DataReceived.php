<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Event;

/** A piece of a request body. Report it with Http2Session::consumed() once the app has read it. */
final class DataReceived implements Http2Event
{
    public function __construct(
        public readonly int $streamId,
        public readonly string $data,
        public readonly bool $endStream,
    ) {
    }
}
