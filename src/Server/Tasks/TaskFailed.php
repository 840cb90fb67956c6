<?php

declare(strict_types=1);

namespace Spindle\Server\Tasks;

/**
 * A task sent to a task worker did not come back with a result: it threw there (the message
 * names the exception's class and message), its worker died while running it, or it cannot
 * cross a process (a closure without laravel/serializable-closure, a resource).
 */
final class TaskFailed extends \RuntimeException
{
}
