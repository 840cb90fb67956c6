<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;

/** Forgets the instances of bindings registered with `$app->scoped()`: they live for one request. */
final class ScopedInstancesResetter implements Resetter
{
    public function __construct(private readonly Application $app)
    {
    }

    public function reset(): void
    {
        $this->app->forgetScopedInstances();
    }
}
