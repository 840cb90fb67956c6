<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Event;

/** The request's trailer fields; the request is complete. */
final class TrailersReceived implements Http2Event
{
    public function __construct(
        public readonly int $streamId,
        /** @var list<array{string, string}> */
        public readonly array $headers,
    ) {
    }
}
