<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Contracts\Http\Kernel;
use Illuminate\Foundation\Application;
use Illuminate\Foundation\Bootstrap\HandleExceptions;
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

    /**
     * Spindle's resetters, in the order they run after every request (each skips what the
     * running Laravel lacks; LivewireResetter is made only when Livewire 3 is installed). The
     * app's own (`config('spindle.resetters')`) run right before APP_RESETTERS_BEFORE.
     */
    public const RESETTERS = [
        Reset\TransactionResetter::class,
        Reset\QueryLogResetter::class,
        Reset\ConfigResetter::class,
        Reset\LocaleResetter::class,
        Reset\AuthResetter::class,
        Reset\SessionResetter::class,
        Reset\CookieResetter::class,
        // Laravel 9 to 12 (each skips what the running Laravel lacks):
        Reset\ContextResetter::class,
        Reset\LogContextResetter::class,
        Reset\DeferredCallbacksResetter::class,
        Reset\OnceResetter::class,
        Reset\SupportHooksResetter::class,
        Reset\ViteResetter::class,
        Reset\CarbonTestNowResetter::class,
        Reset\ScopedInstancesResetter::class,
        Reset\EventListenerResetter::class,
        Reset\ViewResetter::class,
        Reset\ValidatorResetter::class,
        Reset\PaginationResetter::class,
        Reset\LivewireResetter::class,
        // After the resetters that make services (the app's too), so that what they made is
        // dropped as well.
        Reset\ContainerResetter::class,
        Reset\FacadeResetter::class,
    ];

    /** The app's resetters run right before this one. */
    public const APP_RESETTERS_BEFORE = Reset\ContainerResetter::class;

    private int $created = 0;
    /** The statics swapped per instance (SupportStatics::forApp()), known once the first instance booted. */
    private ?SupportStatics $statics = null;
    private ?Redis\RedisDriver $redis = null;
    /** `--check-state`, decided when the first instance booted (its config may turn it on). */
    private ?StateCheck $stateCheck = null;

    /** Whether HandleExceptions keeps its app in a static (Laravel 9 and later) rather than in its object. */
    private readonly bool $bootstrapperIsStatic;

    public function __construct(
        private readonly string $directory,
        private readonly ProcessGlobals $globals,
        private readonly LoggerInterface $logger,
        private readonly bool $checkState = false,
    ) {
        $this->bootstrapperIsStatic = !\property_exists(HandleExceptions::class, 'app') || (new \ReflectionProperty(HandleExceptions::class, 'app'))->isStatic();
    }

    /** The number of the instance booted last (instances are numbered from 1 as they boot). */
    public function created(): int
    {
        return $this->created;
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
            // Laravel 8's exception bootstrapper registers itself, holding this app, as a PHP
            // shutdown function, which nothing can take back: kept so that the instance's release
            // can point it elsewhere (ReleasedInstances) and this app is freed.
            $exceptionBootstrapper = null;
            if (!$this->bootstrapperIsStatic) {
                $app->afterResolving(HandleExceptions::class, static function (object $bootstrapper) use (&$exceptionBootstrapper): void {
                    $exceptionBootstrapper = $bootstrapper;
                });
            }
            $kernel->bootstrap();
            self::warm($app);
            $statics = $this->statics ??= self::statics($app);
            if ($number === 1) {
                $this->stateCheck = StateCheck::forApp($app, $this->directory, $this->checkState, $statics, $this->logger);
            }
            $state = new StaticState($statics);
            $instance = new AppInstance($number, $app, $kernel, $state, $this->resetters($app), $this->stateCheck, $exceptionBootstrapper, new Reset\RequestResetter($app));
            $this->stateCheck?->observe($app);

            return $state;
        }, $this->statics);
        \assert($instance instanceof AppInstance);

        return $instance;
    }

    /** Laravel's support statics, Livewire's when it is registered, and those the app lists in `spindle.statics`. */
    private static function statics(Application $app): SupportStatics
    {
        $config = $app->make('config');
        $extra = $config instanceof \Illuminate\Contracts\Config\Repository ? $config->get('spindle.statics', []) : [];
        if (!\is_array($extra)) {
            throw new \InvalidArgumentException(\sprintf('spindle.statics must map class names to lists of static property names, got %s', \get_debug_type($extra)));
        }

        return SupportStatics::forApp($extra, Reset\LivewireResetter::registeredIn($app));
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

    /**
     * Builds the resetters of one booted instance, in the order they run: RESETTERS up to
     * APP_RESETTERS_BEFORE, then the app's own (`spindle.resetters`), then the rest. The app's
     * see the request's state (its container instances, its scoped services), and what they
     * make in the container is dropped by the restore that follows.
     *
     * @return list<Reset\Resetter>
     */
    private function resetters(Application $app): array
    {
        $resetters = [];
        foreach (self::RESETTERS as $class) {
            if ($class === self::APP_RESETTERS_BEFORE) {
                \array_push($resetters, ...Reset\AppResetter::fromConfig($app));
            }
            $resetter = $this->resetter($class, $app);
            if ($resetter !== null) {
                $resetters[] = $resetter;
            }
        }

        return $resetters;
    }

    /** @param class-string<Reset\Resetter> $class */
    private function resetter(string $class, Application $app): ?Reset\Resetter
    {
        return match ($class) {
            Reset\TransactionResetter::class => new Reset\TransactionResetter($app, $this->logger),
            Reset\OnceResetter::class => new Reset\OnceResetter(),
            Reset\SupportHooksResetter::class => new Reset\SupportHooksResetter(),
            Reset\CarbonTestNowResetter::class => new Reset\CarbonTestNowResetter(),
            Reset\PaginationResetter::class => new Reset\PaginationResetter(),
            Reset\FacadeResetter::class => new Reset\FacadeResetter(),
            Reset\LivewireResetter::class => Reset\LivewireResetter::forApp($app),
            default => new $class($app),
        };
    }
}
