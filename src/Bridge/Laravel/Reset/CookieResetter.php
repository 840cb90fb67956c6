<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Cookie\CookieJar;
use Illuminate\Foundation\Application;

/** Forgets cookies queued with `Cookie::queue()` that no response took (an exception, a route without the middleware). */
final class CookieResetter implements Resetter
{
    /** @var BootedService<CookieJar> */
    private readonly BootedService $cookie;

    public function __construct(private readonly Application $app)
    {
        $this->cookie = BootedService::of($app, 'cookie', CookieJar::class);
    }

    public function reset(): void
    {
        $this->cookie->current()?->flushQueuedCookies();
    }
}
