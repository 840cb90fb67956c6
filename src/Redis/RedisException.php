<?php

declare(strict_types=1);

namespace Spindle\Redis;

/**
 * The root of every failure Spindle's Redis client reports: a connection that could not be
 * made or was lost ({@see ConnectionException}), a reply that breaks the protocol
 * ({@see Protocol\ProtocolException}), an error the server answered ({@see ServerException}).
 * Misuse of the API raises {@see RedisError} instead.
 */
class RedisException extends \RuntimeException
{
}
