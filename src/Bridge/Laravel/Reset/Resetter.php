<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

/**
 * Puts back one piece of an app instance's state after a request, so that the next request on
 * the same instance does not see it. A resetter is made for one booted instance (it may take
 * a snapshot of the booted state then) and runs after every request on it.
 */
interface Resetter
{
    public function reset(): void;
}
