<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Auth\AuthManager;
use Illuminate\Foundation\Application;

/**
 * Forgets the resolved auth guards, and with them the user they hold: the next request starts
 * unauthenticated and finds its user from its own session or token.
 */
final class AuthResetter implements Resetter
{
    /** @var BootedService<AuthManager> */
    private readonly BootedService $auth;

    public function __construct(private readonly Application $app)
    {
        $this->auth = BootedService::of($app, 'auth', AuthManager::class);
    }

    public function reset(): void
    {
        $auth = $this->auth->current();
        if ($auth !== null) {
            $auth->forgetGuards();
            // Guards resolved through the manager's default (Auth::user()) are cached as 'auth.driver' by some apps.
            $this->app->forgetInstance('auth.driver');
        }
    }
}
