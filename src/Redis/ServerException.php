<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Spindle\Redis\Protocol\ErrorReply;

/** The server answered a command with an error reply (`-WRONGTYPE …`, `-NOAUTH …`, …). */
final class ServerException extends RedisException
{
    public function __construct(public readonly ErrorReply $reply, string $command = '')
    {
        parent::__construct($reply->message . ($command !== '' ? ' (command: ' . $command . ')' : ''));
    }

    /** The error's first word: ERR, WRONGTYPE, NOAUTH, OOM, … */
    public function kind(): string
    {
        return $this->reply->kind();
    }
}
