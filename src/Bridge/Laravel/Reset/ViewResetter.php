<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Illuminate\View\Factory;

/**
 * Clears the view factory's rendering state (sections, stacks, render count, components, "once"
 * blocks), which an exception in the middle of a view leaves behind, and puts the shared data
 * back to what boot shared (`View::share()` in a request, the `errors` bag of the last request).
 */
final class ViewResetter implements Resetter
{
    /** @var array<string, mixed> */
    private array $shared = [];
    private bool $captured = false;
    /** @var \Closure(Factory, array<string, mixed>): void bound once: a Closure::call() per request costs about seven times as much */
    private readonly \Closure $writeShared;
    /** @var BootedService<Factory> */
    private readonly BootedService $view;

    public function __construct(private readonly Application $app)
    {
        $writeShared = \Closure::bind(static function (Factory $view, array $shared): void {
            $view->shared = $shared;
        }, null, Factory::class);
        \assert($writeShared !== null);
        $this->writeShared = $writeShared;
        $this->view = BootedService::of($app, 'view', Factory::class);
        if ($app->resolved('view')) {
            $this->capture();
        }
    }

    public function reset(): void
    {
        $view = $this->view->current();
        if ($view === null) {
            return;
        }
        if (!$this->captured) {
            // First resolved during a request: what the providers' callbacks share on resolution
            // is all there is to keep, but the request may have added more. Keep only 'app' and
            // '__env', which the factory shares itself.
            $this->shared = \array_intersect_key($view->getShared(), ['app' => true, '__env' => true]);
            $this->captured = true;
        }
        $view->flushState();
        ($this->writeShared)($view, $this->shared);
    }

    private function capture(): void
    {
        $view = $this->app->make('view');
        if ($view instanceof Factory) {
            $this->shared = $view->getShared();
            $this->captured = true;
        }
    }
}
