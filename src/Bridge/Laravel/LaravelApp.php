<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\FrameworkApp;
use Spindle\Bridge\HttpFoundation\RequestConverter;
use Spindle\Bridge\HttpFoundation\ResponseConverter;
use Spindle\Bridge\HttpFoundation\ServerParams;
use Spindle\Server\ServerOptions;

/**
 * A Laravel app directory (artisan, bootstrap/app.php), served as it is.
 *
 * Each worker keeps a pool of booted instances of the app, at most `--concurrency` of them, or
 * `spindle.instances` of the app's configuration (the `SPINDLE_INSTANCES` environment variable)
 * when that is smaller. The first is booted when the worker starts, the others when requests
 * run at the same time and find none free.
 */
final class LaravelApp implements FrameworkApp
{
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

    public static function boot(string $directory, ServerOptions $options, LoggerInterface $logger): \Closure
    {
        $directory = \rtrim($directory, '/');
        $globals = new ProcessGlobals();
        $factory = new InstanceFactory($directory, $globals, $logger);
        $first = $factory->create();

        $max = \min($options->concurrency, self::instanceCap($first) ?? $options->concurrency);
        $pool = new InstancePool($factory->create(...), $max);
        $pool->add($first);
        $logger->info(\sprintf('Laravel %s booted; up to %d instance(s) per worker', $first->app->version(), $max));

        $handler = new RequestHandler(
            $pool,
            $globals,
            new RequestConverter(ServerParams::forFrontController($directory . '/public/index.php')),
            new ResponseConverter(),
            $logger,
        );

        return $handler->__invoke(...);
    }

    /** The cap on instances from the app's config (`spindle.instances`) or SPINDLE_INSTANCES, if set. */
    private static function instanceCap(AppInstance $instance): ?int
    {
        $value = $instance->app->make('config')->get('spindle.instances');
        if ($value === null) {
            $env = $_SERVER['SPINDLE_INSTANCES'] ?? $_ENV['SPINDLE_INSTANCES'] ?? \getenv('SPINDLE_INSTANCES');
            $value = \is_string($env) && $env !== '' ? $env : null;
        }
        if ($value === null) {
            return null;
        }
        if (\filter_var($value, \FILTER_VALIDATE_INT) === false || (int) $value < 1) {
            throw new \RuntimeException(\sprintf('spindle.instances (SPINDLE_INSTANCES) must be a whole number of at least 1, got %s', \var_export($value, true)));
        }

        return (int) $value;
    }
}
