<?php

declare(strict_types=1);

namespace Spindle\Redis;

/** Misuse of the client's API (a bad URL or option, a command the connection cannot run now). */
final class RedisError extends \LogicException
{
}
