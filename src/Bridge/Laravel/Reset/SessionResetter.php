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
 *
 * A request that never touched the session (an API route) leaves the store the last reset made
 * as it was: the manager still holds only it, the redirector still has it, and the store is not
 * started, holds no attributes and keeps its id, name and handler. Then that store is kept for the
 * next request instead of making another; making one draws a new session id from the system's
 * random source, a system call on every request that PHP-FPM does not make for such routes.
 */
final class SessionResetter implements Resetter
{
    /** The store the last reset made, and its id, name and handler then. */
    private ?Store $fresh = null;
    private string $freshId = '';
    private string $freshName = '';
    private ?object $freshHandler = null;
    /** @var BootedService<SessionManager> */
    private readonly BootedService $manager;
    /** @var BootedService<Redirector> */
    private readonly BootedService $redirect;
    /** @var \Closure(Redirector): mixed the redirector's store (bound once, not per request) */
    private readonly \Closure $redirectSession;

    public function __construct(private readonly Application $app)
    {
        $redirectSession = \Closure::bind(static fn (Redirector $redirect): mixed => $redirect->session, null, Redirector::class);
        \assert($redirectSession !== null);
        $this->redirectSession = $redirectSession;
        $this->manager = BootedService::of($app, 'session', SessionManager::class);
        $this->redirect = BootedService::of($app, 'redirect', Redirector::class);
    }

    public function reset(): void
    {
        if (!$this->manager->isResolved()) {
            return;
        }
        $manager = $this->manager->booted ?? $this->app->make('session');
        $redirect = $this->redirect->booted ?? ($this->app->resolved('redirect') ? $this->app->make('redirect') : null);
        if ($manager instanceof SessionManager && $this->untouched($manager, $redirect)) {
            $this->app->forgetInstance('session.store');

            return;
        }
        if ($manager instanceof SessionManager) {
            $manager->forgetDrivers();
        }
        $this->app->forgetInstance('session.store');
        $this->fresh = null;
        if ($redirect !== null) {
            $store = $this->app->make('session.store');
            if ($redirect instanceof Redirector && $store instanceof Store) {
                $redirect->setSession($store);
                if ($manager instanceof SessionManager && \array_values($manager->getDrivers()) === [$store]) {
                    $this->fresh = $store;
                    $this->freshId = $store->getId();
                    $this->freshName = $store->getName();
                    $this->freshHandler = $store->getHandler();
                }
            }
        }
    }

    /** Whether the store the last reset made is the only one, the redirector's, and unchanged. */
    private function untouched(SessionManager $manager, mixed $redirect): bool
    {
        $fresh = $this->fresh;
        if ($fresh === null || !$redirect instanceof Redirector || \array_values($manager->getDrivers()) !== [$fresh]) {
            return false;
        }
        return ($this->redirectSession)($redirect) === $fresh && !$fresh->isStarted() && $fresh->all() === []
            && $fresh->getId() === $this->freshId && $fresh->getName() === $this->freshName && $fresh->getHandler() === $this->freshHandler;
    }
}
