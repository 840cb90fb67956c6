<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Contracts\Http\Kernel;
use Illuminate\Foundation\Application;
use Illuminate\Http\Request;
use Psr\Log\LoggerInterface;
use Spindle\Bridge\Laravel\Reset;
use Spindle\Loop\Loop;

/**
 * Boots one more instance of the app in $directory: bootstrap/app.php, then the HTTP kernel's
 * bootstrappers (environment, configuration, providers), as a first request under PHP-FPM would.
 */
final class InstanceFactory
{
    /** Services resolved at boot, as Octane's default warm list, plus those nearly every page uses. */
    private const WARM = [
        'auth', 'cache', 'cache.store', 'config', 'cookie', 'db', 'db.factory', 'encrypter', 'files',
        'hash', 'log', 'router', 'routes', 'session', 'translator', 'url', 'view', 'redirect',
        'validator', 'blade.compiler', 'view.engine.resolver', 'view.finder', 'events',
        \Illuminate\Contracts\Routing\ResponseFactory::class, \Illuminate\Routing\Contracts\ControllerDispatcher::class,
        // Shared services that keep nothing of a request (only what their constructor is given)
        // and that most requests resolve: without them here, the container's restore after each
        // request dropped them and the next request built them again (the session middleware
        // twice a request: to handle and to terminate).
        'date', 'Illuminate\Session\Middleware\StartSession', 'Illuminate\Routing\Contracts\CallableDispatcher',
        'Illuminate\Foundation\MaintenanceModeManager',
    ];

    private int $created = 0;
    private ?Redis\RedisDriver $redis = null;

    public function __construct(
        private readonly string $directory,
        private readonly ProcessGlobals $globals,
        private readonly LoggerInterface $logger,
    ) {
    }

    public function create(): AppInstance
    {
        $number = ++$this->created;
        if ($number === 1) {
            // The worker's first instance boots before any request; what it sets process-wide
            // (time zone, error handlers, …) becomes where every request starts.
            return $this->boot($number);
        }
        // Any other boots from that baseline, even in the middle of a request that changed it,
        // and what it sets process-wide again is dropped.
        return Loop::driver()->isolation->isolated(fn (): AppInstance => $this->boot($number));
    }

    private function boot(int $number): AppInstance
    {
        $instance = null;
        $this->globals->boot(function () use ($number, &$instance): StaticState {
            SupportStatics::all()->restoreDefaults();
            $app = require $this->directory . '/bootstrap/app.php';
            if (!$app instanceof Application) {
                throw new \RuntimeException(\sprintf('%s/bootstrap/app.php returned %s, not an Illuminate\Foundation\Application', $this->directory, \get_debug_type($app)));
            }
            $app->bind('db.connector.mysql', SpindleMySqlConnector::class);
            $app->bind('db.connector.pgsql', SpindlePostgresConnector::class);
            ($this->redis ??= new Redis\RedisDriver())->takeOver($app);
            // Providers may look at the request while they boot; the real one replaces it.
            $app->instance('request', Request::create('http://localhost/'));
            $kernel = $app->make(Kernel::class);
            if (!$kernel instanceof \Illuminate\Foundation\Http\Kernel) {
                throw new \RuntimeException(\sprintf('The HTTP kernel of %s is %s, not an Illuminate\Foundation\Http\Kernel', $this->directory, \get_debug_type($kernel)));
            }
            $kernel->bootstrap();
            self::warm($app);
            $state = new StaticState($app);
            $instance = new AppInstance($number, $app, $kernel, $state, $this->resetters($app));

            return $state;
        });
        \assert($instance instanceof AppInstance);

        return $instance;
    }

    /**
     * Resolves, before the container's snapshot is taken, what nearly every request would resolve
     * anyway, so that the restore after each request does not throw it away to be built again:
     * the deferred providers (registered, not their services) and the framework's managers.
     */
    private static function warm(Application $app): void
    {
        foreach (\array_keys($app->getDeferredServices()) as $service) {
            try {
                $app->loadDeferredProvider($service);
            } catch (\Throwable) {
                // A provider that cannot register here is left to the request that needs it.
            }
        }
        foreach (self::WARM as $service) {
            if (!$app->bound($service)) {
                continue;
            }
            try {
                $app->make($service);
            } catch (\Throwable) {
                // Left to the request that needs it (and that reports the failure).
            }
        }
        // The session store belongs to one request (the redirector made one at boot): each
        // request's StartSession opens its own, so the snapshot must not hold one.
        $app->forgetInstance('session.store');
    }

    /** @return list<Reset\Resetter> */
    private function resetters(Application $app): array
    {
        return [
            new Reset\TransactionResetter($app, $this->logger),
            new Reset\QueryLogResetter($app),
            new Reset\ConfigResetter($app),
            new Reset\LocaleResetter($app),
            new Reset\AuthResetter($app),
            new Reset\SessionResetter($app),
            new Reset\CookieResetter($app),
            // Laravel 9 to 12 (each skips what the running Laravel lacks):
            new Reset\ContextResetter($app),
            new Reset\LogContextResetter($app),
            new Reset\DeferredCallbacksResetter($app),
            new Reset\OnceResetter(),
            new Reset\SupportHooksResetter(),
            new Reset\ViteResetter($app),
            new Reset\CarbonTestNowResetter(),
            new Reset\ScopedInstancesResetter($app),
            new Reset\EventListenerResetter($app),
            new Reset\ViewResetter($app),
            new Reset\ValidatorResetter($app),
            new Reset\PaginationResetter(),
            new Reset\TerminatingCallbackResetter($app),
            // After the resetters that make services, so that what they made is dropped too.
            new Reset\ContainerResetter($app),
            new Reset\RequestResetter($app),
            new Reset\FacadeResetter(),
        ];
    }
}
