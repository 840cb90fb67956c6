<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Illuminate\Support\Defer\DeferredCallbackCollection;

/**
 * Drops the `defer()` callbacks (Laravel 11 and later) that the request's termination did not
 * run (Laravel runs them only after a response below 400, unless marked `always`), so that they
 * never run at the end of another request. Laravel binds the collection as a scoped instance;
 * this also covers an app that rebinds it as a singleton. Nothing to do on older Laravel.
 */
final class DeferredCallbacksResetter implements Resetter
{
    /** @var (\Closure(object): void)|null bound on first use (the class is Laravel 11's) */
    private ?\Closure $clear = null;

    public function __construct(private readonly Application $app)
    {
        // Loads the class where this Laravel has it: reset() then asks without the autoloader,
        // whose search for a missing class costs file lookups on every request.
        \class_exists(DeferredCallbackCollection::class);
    }

    public function reset(): void
    {
        if (!\class_exists(DeferredCallbackCollection::class, false) || !$this->app->resolved(DeferredCallbackCollection::class)) {
            return;
        }
        $callbacks = $this->app->make(DeferredCallbackCollection::class);
        if ($callbacks instanceof DeferredCallbackCollection) {
            $this->clear ??= \Closure::bind(static function (object $callbacks): void {
                $callbacks->callbacks = []; // @phpstan-ignore property.notFound
            }, null, DeferredCallbackCollection::class);
            ($this->clear)($callbacks);
        }
    }
}
