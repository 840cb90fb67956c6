<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Cookie\CookieJar;
use Illuminate\Foundation\Application;

/** Forgets cookies queued with `Cookie::queue()` that no response took (an exception, a route without the middleware). */
final class CookieResetter implements Resetter
{
    private readonly ?CookieJar $booted;

    public function __construct(private readonly Application $app)
    {
        $this->booted = BootedService::of($app, 'cookie', CookieJar::class);
    }

    public function reset(): void
    {
        if ($this->booted === null && !$this->app->resolved('cookie')) {
            return;
        }
        $jar = $this->booted ?? $this->app->make('cookie');
        if ($jar instanceof CookieJar) {
            $jar->flushQueuedCookies();
        }
    }
}
