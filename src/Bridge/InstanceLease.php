<?php

declare(strict_types=1);

namespace Spindle\Bridge;

/**
 * One request's hold on an app instance (a Laravel app, a Symfony kernel) borrowed from its
 * framework's pool, for PooledHandler.
 */
interface InstanceLease
{
    /** The request's fiber resumes to send a piece of a streamed body: make the instance current. */
    public function resumed(): void;

    /**
     * The request is done with the instance: terminate it (the framework's after-response work),
     * reset it and give it back, or drop it if it cannot be reset. Only the first call counts.
     */
    public function end(): void;

    /**
     * The request goes on for long (a streamed response): its instance stops counting against
     * the pool, which may boot another in its place; once ended it is terminated and let go
     * instead of reset and given back. Does nothing when the pool has as many out already.
     */
    public function detach(): void;
}
