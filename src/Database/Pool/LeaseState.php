<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

/** Where a PooledConnection stands. */
enum LeaseState
{
    /** Lent to its fiber: calls go through to the connection. */
    case Held;
    /** Released while a call through it was still running: it goes back when that call ends. */
    case Releasing;
    /** Back in the pool (or discarded): every call throws ConnectionReleased. */
    case Released;
}
