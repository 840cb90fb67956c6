<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

/** An error reply (`-ERR …` or RESP3's blob error), kept as a value: it answers one command only. */
final class ErrorReply
{
    public function __construct(public readonly string $message)
    {
    }

    /** The first word, by convention the error's kind: ERR, WRONGTYPE, NOAUTH, OOM, … */
    public function kind(): string
    {
        $space = strpos($this->message, ' ');

        return $space === false ? $this->message : substr($this->message, 0, $space);
    }
}
