<?php

declare(strict_types=1);

namespace Spindle\Redis;

/**
 * The connection could not be opened, timed out, or was lost; the message names the server and,
 * once connected, the command that was waiting.
 */
final class ConnectionException extends RedisException
{
}
