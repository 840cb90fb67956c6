<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Illuminate\Http\Request;

/**
 * Rebinds a blank request once a request is done, as the HTTP kernel rebinds the real one at
 * the start of the next: the `request` rebinding callbacks hand it to the URL generator (and
 * through it the redirector) and to everything else that asked to be refreshed, so nothing
 * holds on to the finished request, its input or its uploaded files.
 *
 * The blank request is made once per instance: no request runs while it is bound (the kernel
 * replaces it first thing), so nothing writes to it but those callbacks, which set the same
 * things on every rebind.
 */
final class RequestResetter implements Resetter
{
    private readonly Request $blank;

    public function __construct(private readonly Application $app)
    {
        $url = $app->make('config')->get('app.url');
        $this->blank = Request::create(\is_string($url) && $url !== '' ? $url : 'http://localhost');
    }

    public function reset(): void
    {
        if (!$this->app->resolved('request') && !$this->app->bound('request')) {
            return;
        }
        $this->app->instance('request', $this->blank);
    }
}
