<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

/** A simple string reply (`+OK`, `+PONG`, `+QUEUED`), told apart from a bulk string. */
final class Status
{
    public function __construct(public readonly string $value)
    {
    }

    public function isOk(): bool
    {
        return $this->value === 'OK';
    }
}
