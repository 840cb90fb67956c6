<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

use Spindle\Redis\RedisException;

/** The server sent bytes that are not RESP, or announced more than the configured limits allow. */
final class ProtocolException extends RedisException
{
}
