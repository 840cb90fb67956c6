<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Container\Container;
use Illuminate\Foundation\Application;
use Illuminate\Http\Request as IlluminateRequest;
use Illuminate\Routing\Route;
use Psr\Log\LoggerInterface;
use Spindle\Bridge\StateCheck\AppClasses;
use Spindle\Bridge\StateCheck\ResetAdvice;
use Spindle\Bridge\StateCheck\StateWatch;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;

/**
 * `--check-state` for a Laravel app (also `config('spindle.check_state')` or SPINDLE_CHECK_STATE):
 * after each request, once Spindle's resetters and the app's own (`spindle.resetters`) ran, warns
 * about the app's statics and the properties of the container's shared instances (those the
 * instance held before the request) that the request changed. The statics Spindle swaps per
 * instance (its table and `spindle.statics`) are not reported.
 */
final class StateCheck
{
    /** @var \Closure(Container): array<string, mixed> */
    private readonly \Closure $instances;

    private function __construct(private readonly StateWatch $watch)
    {
        $instances = \Closure::bind(static fn (Container $container): array => $container->instances, null, Container::class);
        \assert($instances !== null);
        $this->instances = $instances;
    }

    /**
     * The check for the app in $directory when the server option, `spindle.check_state` or the
     * SPINDLE_CHECK_STATE environment variable turns it on; null otherwise.
     */
    public static function forApp(Application $app, string $directory, bool $option, SupportStatics $covered, LoggerInterface $logger): ?self
    {
        $config = $app->make('config');
        $setting = $config instanceof \Illuminate\Contracts\Config\Repository ? $config->get('spindle.check_state') : null;
        if ($setting === null) {
            $setting = $_SERVER['SPINDLE_CHECK_STATE'] ?? $_ENV['SPINDLE_CHECK_STATE'] ?? \getenv('SPINDLE_CHECK_STATE');
        }
        if (!$option && !StateWatch::switchedOn($setting)) {
            return null;
        }
        $logger->info('Checking for state the app keeps across requests (--check-state): a development tool, it slows every request');

        return new self(new StateWatch(new AppClasses($directory), $logger, ResetAdvice::Laravel, $covered->names()));
    }

    /** A booted instance: its shared instances and the statics as they are now are where its requests start. */
    public function observe(Application $app): void
    {
        $this->watch->observe($app, ($this->instances)($app));
    }

    /** After a request on $app and its reset. */
    public function check(Application $app, ?SymfonyRequest $request): void
    {
        $this->watch->check($app, ($this->instances)($app), self::describe($request));
    }

    private static function describe(?SymfonyRequest $request): string
    {
        if ($request === null) {
            return 'a request';
        }
        $described = $request->getMethod() . ' ' . $request->getPathInfo();
        $route = $request instanceof IlluminateRequest ? $request->route() : null;
        if ($route instanceof Route) {
            $name = $route->getName();
            $described .= \is_string($name) && $name !== '' ? \sprintf(' (route %s)', $name) : \sprintf(' (route /%s)', \ltrim($route->uri(), '/'));
        }

        return $described;
    }
}
