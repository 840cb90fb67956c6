<?php

declare(strict_types=1);

namespace Spindle\Bridge\HttpFoundation;

use Spindle\Loop\TaskCancelled;

/**
 * Thrown into a streamed response's callback where it waits, once nobody reads its output any
 * more (the client left, the request timed out). The callback may catch it to clean up.
 */
final class StreamAbandoned extends TaskCancelled
{
}
