<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

/** Where a fiber waiting in ConnectionPool::acquire() stands. */
enum WaiterState
{
    /** In the queue. */
    case Waiting;
    /** Given a connection (or a free slot to open one) and resumed, not yet running again. */
    case Granted;
    /** Running again with what it was given. */
    case Taken;
    /** Its wait timed out, or the pool closed: an exception was thrown in. */
    case Failed;
}
