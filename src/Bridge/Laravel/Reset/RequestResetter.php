<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Illuminate\Http\Request;
use Illuminate\Routing\Router;

/**
 * Makes an instance let go of its finished request: the router forgets its current route (its
 * current request becomes a blank one), and the blank request is rebound, as the HTTP kernel rebinds the real one at the start
 * of the next: the `request` rebinding callbacks hand it to the URL generator (and through it the
 * redirector) and to everything else that asked to be refreshed.
 *
 * No later request sees the finished one either way (the kernel binds each request's own first
 * thing), so this does not run after every request: see Bridge\Laravel\FinishedRequests for when
 * it runs. Until it does, the finished request's memory (its input, a body stream's descriptor)
 * stays held, and a task lent the instance would find it in `Route::current()` and
 * `url()->current()`.
 *
 * The blank request is made once per instance: no request runs while it is bound (the kernel
 * replaces it first thing), so nothing writes to it but those callbacks, which set the same
 * things on every rebind.
 */
final class RequestResetter implements Resetter
{
    private readonly Request $blank;
    /** @var \Closure(Router, Request): void */
    private readonly \Closure $forgetRoute;

    public function __construct(private readonly Application $app)
    {
        $url = $app->make('config')->get('app.url');
        $this->blank = Request::create(\is_string($url) && $url !== '' ? $url : 'http://localhost');
        $forgetRoute = \Closure::bind(static function (Router $router, Request $blank): void {
            $router->current = null;
            $router->currentRequest = $blank;
        }, null, Router::class);
        \assert($forgetRoute !== null);
        $this->forgetRoute = $forgetRoute;
    }

    public function reset(): void
    {
        if ($this->app->resolved('router')) {
            $router = $this->app->make('router');
            if ($router instanceof Router) {
                ($this->forgetRoute)($router, $this->blank);
            }
        }
        if (!$this->app->resolved('request') && !$this->app->bound('request')) {
            return;
        }
        $this->app->instance('request', $this->blank);
    }
}
