<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * The request-body bytes one worker holds in memory, all its connections together, against
 * HttpLimits::$bodyBufferTotal. A body that cannot take its next piece from here goes to a
 * temporary file instead, so many connections sending bodies at once cannot grow the worker
 * past the cap. Bytes are taken while a body arrives and given back when its request is done.
 */
final class BodyMemory
{
    /** Bytes taken now. */
    public int $used = 0;

    public function __construct(public readonly int $limit)
    {
    }

    /** Takes $bytes if they fit under the limit; false (and nothing taken) when they do not. */
    public function take(int $bytes): bool
    {
        if ($this->used + $bytes > $this->limit) {
            return false;
        }
        $this->used += $bytes;

        return true;
    }

    public function give(int $bytes): void
    {
        $this->used -= $bytes;
    }
}
