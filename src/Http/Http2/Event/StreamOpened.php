<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Event;

/** A request arrived: its header list, validated (RFC 9113 §8.3), pseudo-header fields first. */
final class StreamOpened implements Http2Event
{
    public function __construct(
        public readonly int $streamId,
        /** @var list<array{string, string}> */
        public readonly array $headers,
        /** True when the request has no body (HEADERS carried END_STREAM). */
        public readonly bool $endStream,
    ) {
    }
}
