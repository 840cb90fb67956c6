<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Illuminate\Log\Context\Repository;

/**
 * Empties the `Context` repository (Laravel 11 and later: the request's log context, visible
 * and hidden). Laravel binds it as a scoped instance, which ScopedInstancesResetter forgets;
 * this also covers an app that rebinds it as a singleton. Nothing to do on older Laravel.
 */
final class ContextResetter implements Resetter
{
    public function __construct(private readonly Application $app)
    {
        // Loads the class where this Laravel has it: reset() then asks without the autoloader,
        // whose search for a missing class costs file lookups on every request.
        \class_exists(Repository::class);
    }

    public function reset(): void
    {
        if (!\class_exists(Repository::class, false) || !$this->app->resolved(Repository::class)) {
            return;
        }
        $context = $this->app->make(Repository::class);
        if ($context instanceof Repository) {
            $context->flush();
        }
    }
}
