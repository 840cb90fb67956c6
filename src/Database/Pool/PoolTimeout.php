<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

/** acquire() waited the pool's wait timeout and no connection became free. */
final class PoolTimeout extends \RuntimeException
{
}
