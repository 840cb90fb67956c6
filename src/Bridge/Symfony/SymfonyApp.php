<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\FrameworkApp;
use Spindle\Bridge\HttpFoundation\RequestConverter;
use Spindle\Bridge\HttpFoundation\ResponseConverter;
use Spindle\Bridge\HttpFoundation\ServerParams;
use Spindle\Bridge\InstanceMetrics;
use Spindle\Bridge\PooledHandler;
use Spindle\Bridge\WorkerEnvironment;
use Spindle\Server\ServerOptions;
use Spindle\Server\WorkerServices;
use Symfony\Component\HttpKernel\HttpKernelInterface;

/**
 * A Symfony app directory served by `spindle serve <directory>`: bin/console, a kernel
 * (src/Kernel.php or a front controller using symfony/runtime) and symfony/http-kernel.
 *
 * Each worker keeps a pool of booted kernels, up to --concurrency, created as requests need
 * them; a request borrows one for its whole life and gives it back reset.
 */
final class SymfonyApp implements FrameworkApp
{
    /** Seconds after which kernels a quiet worker did not need go, unless SPINDLE_INSTANCE_IDLE_TIMEOUT says otherwise. */
    private const IDLE_TIMEOUT = 30;

    public static function name(): string
    {
        return 'Symfony';
    }

    public static function detect(string $directory): bool
    {
        $directory = \rtrim($directory, '/');

        return \is_file($directory . '/bin/console')
            && (\is_file($directory . '/src/Kernel.php') || KernelFactory::usesRuntime($directory . '/public/index.php'))
            && (\interface_exists(HttpKernelInterface::class) || \is_dir($directory . '/vendor/symfony/http-kernel'));
    }

    public static function boot(string $directory, ServerOptions $options, LoggerInterface $logger, WorkerServices $services): \Closure
    {
        $factory = KernelFactory::forProject($directory);
        // Decided once the runtime loaded the app's .env files, which may set SPINDLE_CHECK_STATE.
        $stateCheck = StateCheck::forApp($directory, $options->checkState, $logger);
        $create = $factory->create(...);
        if ($stateCheck !== null) {
            // A new kernel's services and the statics, as they are after its boot, are where its requests start.
            $create = static function () use ($factory, $stateCheck): HttpKernelInterface {
                $kernel = $factory->create();
                $stateCheck->check($kernel, null);

                return $kernel;
            };
        }
        $pool = new KernelPool($create, \max(1, $options->concurrency), self::idleTimeout(), $logger);
        InstanceMetrics::export($pool, $services->metrics());
        // The first kernel boots now: an app that cannot boot stops the worker before it listens.
        $pool->release($pool->borrow());
        $clients = $factory->clients();
        if ($clients !== null) {
            $clients->installed ? $logger->info('Symfony: ' . $clients->description) : $logger->warning('Symfony: ' . $clients->description);
        }
        $sessions = $factory->sessions();
        if ($sessions !== null && $sessions->enabled) {
            $sessions->installed ? $logger->info('Symfony: ' . $sessions->description) : $logger->warning('Symfony: ' . $sessions->description);
        }

        $handler = new PooledHandler(new KernelHandler(
            $pool,
            new RequestConverter(ServerParams::forFrontController($factory->frontController, extra: self::environment())),
            new ResponseConverter(),
            new KernelResetter($stateCheck),
            $logger,
        ));

        return $handler(...);
    }

    /**
     * APP_ENV, APP_DEBUG and the other variables the runtime and .env set, as PHP-FPM would
     * pass them in $_SERVER.
     *
     * @return array<string, string>
     */
    private static function environment(): array
    {
        $extra = [];
        foreach (\explode(',', (string) ($_SERVER['SYMFONY_DOTENV_VARS'] ?? '')) as $name) {
            if ($name !== '' && \is_scalar($_SERVER[$name] ?? null)) {
                $extra[$name] = (string) $_SERVER[$name];
            }
        }
        foreach (['APP_ENV', 'APP_DEBUG', 'SYMFONY_DOTENV_VARS'] as $name) {
            if (\is_scalar($_SERVER[$name] ?? null)) {
                $extra[$name] = (string) $_SERVER[$name];
            }
        }

        return $extra;
    }

    /**
     * Seconds after which the kernels a quiet worker did not need are let go:
     * SPINDLE_INSTANCE_IDLE_TIMEOUT, a whole number of at least 1 as for Laravel, 30 by default.
     */
    private static function idleTimeout(): int
    {
        $value = WorkerEnvironment::value('SPINDLE_INSTANCE_IDLE_TIMEOUT');
        if ($value === null) {
            return self::IDLE_TIMEOUT;
        }
        if (\filter_var($value, \FILTER_VALIDATE_INT) === false || (int) $value < 1) {
            throw new \RuntimeException(\sprintf('SPINDLE_INSTANCE_IDLE_TIMEOUT must be a whole number of at least 1, got %s', \var_export($value, true)));
        }

        return (int) $value;
    }
}
