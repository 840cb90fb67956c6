<?php

declare(strict_types=1);

namespace Spindle\Loop;

/**
 * The one type of a task's cancellation: thrown into a task where it waits (or at its next wait)
 * when something above it gives up on it — its request ran past --request-timeout
 * (Server\RequestTimedOut), nobody reads its streamed body any more (StreamAbandoned), or another
 * task of its Spindle\concurrently() group failed (this class itself). Code that holds something
 * across a wait catches this type to clean up whatever the cause, and rethrows.
 *
 * Not final: each cause is a subclass, so that a handler can tell them apart.
 */
class TaskCancelled extends \RuntimeException
{
}
