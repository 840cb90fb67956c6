<?php

declare(strict_types=1);

namespace Spindle\Loop\Wait;

/** Where a fiber waiting in a WaitQueue stands. */
enum WaitState
{
    /** In the queue. */
    case Waiting;
    /** Handed a value and resumed, not yet running again. */
    case Granted;
    /** Running again with what it was handed. */
    case Taken;
    /** Left without a value: deadline, cancellation, failAll(). */
    case Failed;
}
