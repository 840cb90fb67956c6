<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\FrameworkApp;
use Spindle\Bridge\HttpFoundation\RequestConverter;
use Spindle\Bridge\HttpFoundation\ResponseConverter;
use Spindle\Bridge\HttpFoundation\ServerParams;
use Spindle\Bridge\InstanceMetrics;
use Spindle\Bridge\PooledHandler;
use Spindle\Bridge\BridgeServices;
use Spindle\Bridge\WorkerEnvironment;
use Spindle\Server\ServerOptions;
use Spindle\Server\WorkerServices;

/**
 * A Laravel app directory (artisan, bootstrap/app.php), served as it is.
 *
 * Each worker keeps a pool of booted instances of the app, at most `--concurrency` of them, or
 * `spindle.instances` of the app's configuration (the `SPINDLE_INSTANCES` environment variable)
 * when that is smaller. `spindle.warm` (SPINDLE_WARM_INSTANCES, default 4) of them boot with the
 * worker, and one more is always booted ahead of need, in the background, so a burst of requests
 * does not stall the worker while instances boot back to back. Instances beyond the warm ones
 * that a quiet period did not need are let go every `spindle.idle_timeout` seconds
 * (SPINDLE_INSTANCE_IDLE_TIMEOUT, default 30). `spindle_app_instances{state}` on `--metrics`
 * shows how many there are, idle and busy.
 */
final class LaravelApp implements FrameworkApp
{
    /** Instances booted with the worker unless `spindle.warm` says otherwise. */
    private const WARM = 4;
    /** Seconds after which instances a quiet worker did not need go, unless `spindle.idle_timeout` says otherwise. */
    private const IDLE_TIMEOUT = 30;

    public static function name(): string
    {
        return 'Laravel';
    }

    public static function detect(string $directory): bool
    {
        return \is_file($directory . '/artisan')
            && \is_file($directory . '/bootstrap/app.php')
            && \class_exists(\Illuminate\Foundation\Application::class);
    }

    public static function boot(string $directory, ServerOptions $options, LoggerInterface $logger, WorkerServices $services): \Closure
    {
        $directory = \rtrim($directory, '/');
        // The worker's database pools, logging to the worker's log (the connectors find them).
        $bridge = BridgeServices::of($services);
        $bridge->sessionPools($logger);
        $globals = new ProcessGlobals();
        $factory = new InstanceFactory($directory, $globals, $logger, $options->checkState);
        $first = $factory->create();

        $max = \min($options->concurrency, self::setting($first, 'instances') ?? $options->concurrency);
        $warm = \min($max, self::setting($first, 'warm') ?? self::WARM);
        $released = new ReleasedInstances($logger, $factory->created(...), $first->app);
        $pool = new InstancePool(
            $factory->create(...),
            $max,
            spare: 1,
            onBootFailure: static function (\Throwable $e) use ($logger): void {
                $logger->error('Booting another Laravel instance failed: ' . $e->getMessage(), ['exception' => $e]);
            },
            keep: $warm,
            idleTimeout: (float) (self::setting($first, 'idle_timeout') ?? self::IDLE_TIMEOUT),
            onDrop: static function (AppInstance $instance) use ($globals, $released): void {
                $globals->forget($instance->state);
                $released->release($instance);
            },
        );
        InstanceMetrics::export($pool, $services->metrics());
        $pool->add($first);
        for ($i = 1; $i < $warm; ++$i) {
            $pool->add($factory->create());
        }
        // The instances the tasks of Concurrency::run() borrow (ConcurrencyDriver finds them here).
        $finished = new FinishedRequests($globals, $logger);
        $instances = new TaskInstances($pool, $globals, $logger, $finished);
        $bridge->useTaskInstances($instances);
        $instances->registerTicks($first, $services->ticks());
        $logger->info(\sprintf('Laravel %s booted; %d instance(s) ready, up to %d per worker', $first->app->version(), $warm, $max));

        $handler = new PooledHandler(new RequestHandler(
            $pool,
            $globals,
            new RequestConverter(ServerParams::forFrontController($directory . '/public/index.php')),
            new ResponseConverter(),
            $logger,
            $finished,
            self::earlyHints($first) ? new EarlyHintsMemory() : null,
        ));

        return PusherRoutes::wrap($first, $handler->__invoke(...), $logger, $services->taskClient());
    }

    /**
     * `spindle.instances` (SPINDLE_INSTANCES: the cap on instances), `spindle.warm`
     * (SPINDLE_WARM_INSTANCES: how many boot with the worker) or `spindle.idle_timeout`
     * (SPINDLE_INSTANCE_IDLE_TIMEOUT: seconds) from the app's config or the environment, if set.
     */
    /** Whether the app asked for 103 Early Hints from its responses' preload links (`spindle.early_hints`, SPINDLE_EARLY_HINTS). */
    private static function earlyHints(AppInstance $instance): bool
    {
        $value = $instance->app->make('config')->get('spindle.early_hints') ?? WorkerEnvironment::value('SPINDLE_EARLY_HINTS');

        return \filter_var($value, \FILTER_VALIDATE_BOOL) === true;
    }

    private static function setting(AppInstance $instance, string $name): ?int
    {
        $variable = match ($name) {
            'warm' => 'SPINDLE_WARM_INSTANCES',
            'idle_timeout' => 'SPINDLE_INSTANCE_IDLE_TIMEOUT',
            default => 'SPINDLE_INSTANCES',
        };
        $value = $instance->app->make('config')->get('spindle.' . $name);
        $value ??= WorkerEnvironment::value($variable);
        if ($value === null) {
            return null;
        }
        if (\filter_var($value, \FILTER_VALIDATE_INT) === false || (int) $value < 1) {
            throw new \RuntimeException(\sprintf('spindle.%s (%s) must be a whole number of at least 1, got %s', $name, $variable, \var_export($value, true)));
        }

        return (int) $value;
    }
}
