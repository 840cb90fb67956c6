<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

/** Whether a ConnectionPool still hands out connections. */
enum PoolState
{
    case Open;
    case Closed;
}
