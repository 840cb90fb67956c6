<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Action;

/** Something the master's state machine asks the process layer to do. */
interface Action
{
}
