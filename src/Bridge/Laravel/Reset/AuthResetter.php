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
    private readonly ?AuthManager $booted;

    public function __construct(private readonly Application $app)
    {
        $this->booted = BootedService::of($app, 'auth', AuthManager::class);
    }

    public function reset(): void
    {
        if ($this->booted === null && !$this->app->resolved('auth')) {
            return;
        }
        $auth = $this->booted ?? $this->app->make('auth');
        if ($auth instanceof AuthManager) {
            $auth->forgetGuards();
            // Guards resolved through the manager's default (Auth::user()) are cached as 'auth.driver' by some apps.
            $this->app->forgetInstance('auth.driver');
        }
    }
}
