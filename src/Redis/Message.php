<?php

declare(strict_types=1);

namespace Spindle\Redis;

/** A message received on a subscription; $pattern is the pattern that matched for PSUBSCRIBE. */
final class Message
{
    public function __construct(
        public readonly string $channel,
        public readonly string $payload,
        public readonly ?string $pattern = null,
    ) {
    }
}
