<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Action;

/** Every first-generation worker accepts connections: print the readiness line. */
final class Announce implements Action
{
}
