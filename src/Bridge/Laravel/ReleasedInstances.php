<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Database\DatabaseManager;
use Illuminate\Foundation\Application;
use Illuminate\Foundation\Bootstrap\HandleExceptions;
use Psr\Log\LoggerInterface;
use Spindle\Bridge\ReleasedObjects;

/**
 * What happens to an app instance the pool lets go: its database connections are closed at once
 * (whatever still references the instance, its connections do not stay open on the server), and
 * once the pool's collection has run, it is checked to be freed.
 *
 * Laravel's providers register closures in process-wide statics at each boot (macros, middleware
 * redirects, URL resolvers), so the statics hold the instance booted last until another boot
 * replaces them: that one instance may outlive its release. Any other instance still reachable
 * is a leak that grows with every burst (each burst boots instances and lets them go), so the
 * worker warns, once, naming the static property that holds it where one does: list it in
 * `config('spindle.statics')` so that each instance keeps its own. (Laravel 8 registers each
 * instance's exception bootstrapper as a PHP shutdown function, which nothing can take back: on
 * release it is pointed at the first instance's app.)
 */
final class ReleasedInstances
{
    private readonly ReleasedObjects $watch;

    /**
     * @param \Closure(): int $lastBooted the number of the instance booted last
     * @param Application $first the app of the worker's first instance, which is never freed
     */
    public function __construct(
        private readonly LoggerInterface $logger,
        \Closure $lastBooted,
        private readonly Application $first,
    ) {
        $this->watch = new ReleasedObjects(
            $logger,
            'Laravel instance',
            // The first instance's error handlers are where every request starts (ProcessState);
            // the statics keep the one booted last.
            static fn (int $number): bool => $number === 1 || $number === $lastBooted(),
            static fn (?string $holder): string => 'Its database connections are closed. ' . ($holder !== null
                ? 'List that static in config(\'spindle.statics\') so that each instance keeps its own.'
                : 'Something outside the instance keeps an object of it (a shutdown function, a suspended fiber).'),
        );
    }

    /** $instance was just let go: its connections close, and it is looked at once collected. */
    public function release(AppInstance $instance): void
    {
        try {
            if ($instance->app->resolved('db')) {
                $db = $instance->app->make('db');
                if ($db instanceof DatabaseManager) {
                    foreach (\array_keys($db->getConnections()) as $name) {
                        $db->disconnect((string) $name);
                    }
                }
            }
        } catch (\Throwable $e) {
            $this->logger->warning(\sprintf('Closing the database connections of Laravel instance %d failed: %s', $instance->number, $e->getMessage()), ['exception' => $e]);
        }
        if ($instance->exceptionBootstrapper !== null && $instance->app !== $this->first) {
            // Laravel 8: PHP's shutdown functions hold this instance's HandleExceptions, which holds
            // its app; the first instance's app (kept for the worker's life anyway) takes its place.
            $point = \Closure::bind(static function (object $bootstrapper, Application $app): void {
                \assert($bootstrapper instanceof HandleExceptions);
                $bootstrapper->app = $app;
            }, null, HandleExceptions::class);
            $point?->__invoke($instance->exceptionBootstrapper, $this->first);
        }
        $this->watch->watch($instance->number, $instance->app);
    }
}
