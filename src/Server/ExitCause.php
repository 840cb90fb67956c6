<?php

declare(strict_types=1);

namespace Spindle\Server;

/** What ended a worker process in the middle of a request; the value is what goes on the channel. */
enum ExitCause: string
{
    /** The request called exit() (or die). */
    case Exit = 'exit';
    /** A fatal error (memory exhausted, a time limit, a compile error) ended the request. */
    case FatalError = 'fatal-error';
}
