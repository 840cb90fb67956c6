<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * A failure of Spindle's process control: the control socket, the pid file or detaching
 * into the background. The message is meant for the person running the command.
 */
final class ControlError extends \RuntimeException
{
}
