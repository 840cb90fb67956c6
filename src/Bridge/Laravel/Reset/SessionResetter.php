<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Illuminate\Routing\Redirector;
use Illuminate\Session\SessionManager;
use Illuminate\Session\Store;

/**
 * Drops the request's session store: the next request gets a new, empty store that loads its
 * own session by its own cookie (a Store keeps the attributes it loaded and merges the next
 * session's into them). The redirector, which holds the store it was made with, gets the new one.
 */
final class SessionResetter implements Resetter
{
    public function __construct(private readonly Application $app)
    {
    }

    public function reset(): void
    {
        if (!$this->app->resolved('session')) {
            return;
        }
        $manager = $this->app->make('session');
        if ($manager instanceof SessionManager) {
            $manager->forgetDrivers();
        }
        $this->app->forgetInstance('session.store');
        if ($this->app->resolved('redirect')) {
            $redirect = $this->app->make('redirect');
            $store = $this->app->make('session.store');
            if ($redirect instanceof Redirector && $store instanceof Store) {
                $redirect->setSession($store);
            }
        }
    }
}
