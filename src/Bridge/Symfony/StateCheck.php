<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\StateCheck\AppClasses;
use Spindle\Bridge\StateCheck\ResetAdvice;
use Spindle\Bridge\StateCheck\StateWatch;
use Symfony\Component\DependencyInjection\Container;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpKernel\KernelInterface;

/**
 * `--check-state` for a Symfony app (also the SPINDLE_CHECK_STATE environment variable, which
 * .env files may set): after each request, once the kernel's services resetter ran (every
 * kernel.reset service), warns about the app's statics and the properties of the container's
 * services (those it held before the request) that the request changed.
 */
final class StateCheck
{
    /** @var \Closure(Container): list<mixed> */
    private readonly \Closure $services;

    private function __construct(private readonly StateWatch $watch)
    {
        $services = \Closure::bind(
            static fn (Container $container): array => [...\array_values($container->services), ...\array_values($container->privates)],
            null,
            Container::class,
        );
        \assert($services !== null);
        $this->services = $services;
    }

    /** The check for the app in $directory when the server option or SPINDLE_CHECK_STATE turns it on; null otherwise. */
    public static function forApp(string $directory, bool $option, LoggerInterface $logger): ?self
    {
        if (!$option && !StateWatch::switchedOn($_SERVER['SPINDLE_CHECK_STATE'] ?? $_ENV['SPINDLE_CHECK_STATE'] ?? \getenv('SPINDLE_CHECK_STATE'))) {
            return null;
        }
        $logger->info('Checking for state the app keeps across requests (--check-state): a development tool, it slows every request');

        return new self(new StateWatch(new AppClasses($directory), $logger, ResetAdvice::Symfony));
    }

    /** After a request on $kernel and its reset; the first time, only reads what the kernel holds. */
    public function check(object $kernel, ?Request $request): void
    {
        if (!$kernel instanceof KernelInterface) {
            return;
        }
        $container = $kernel->getContainer();
        $services = $container instanceof Container ? ($this->services)($container) : [];
        if ($request === null) {
            $this->watch->observe($kernel, $services);

            return;
        }
        $route = $request->attributes->get('_route');
        $this->watch->check($kernel, $services, $request->getMethod() . ' ' . $request->getPathInfo() . (\is_string($route) ? \sprintf(' (route %s)', $route) : ''));
    }
}
