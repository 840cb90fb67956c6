<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Loop\TaskCancelled;

/**
 * Thrown into a request's fiber, where it waits, once the request ran past --request-timeout.
 * The client already got a 504 (or, mid-stream, a closed connection): whatever the request
 * does afterwards is never sent.
 */
final class RequestTimedOut extends TaskCancelled
{
}
