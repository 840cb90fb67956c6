<?php

declare(strict_types=1);

namespace Spindle\Tests\Replay;

/** A response the replay harness got, with its whole body. */
final class ReplayResponse
{
    /** @param array<string, list<string>|string> $headers */
    public function __construct(
        public readonly int $status,
        public readonly array $headers,
        public readonly string $body,
    ) {
    }

    /** The body decoded as JSON. */
    public function json(): mixed
    {
        return \json_decode($this->body, true, 512, \JSON_THROW_ON_ERROR);
    }
}
