<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Spindle\Bridge\Symfony\Clients\ClientsPass;
use Symfony\Component\Config\ConfigCache;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpKernel\Kernel;

/**
 * Adds SpindleBundle to a kernel Spindle boots, without the app listing it: before boot(), the
 * kernel's container is built (or loaded from its cache) with the app's bundles and Spindle's,
 * through the kernel's own protected steps (initializeBundles, initializeContainer, and
 * buildContainer/dumpContainer when a cached container was built without it, by bin/console or
 * a cache warm-up); boot() then loads that container from the cache as it loads any.
 *
 * The kernel's compiled container is the one file bin/console uses too: ClientsPass's services
 * choose Spindle's clients only in a worker, so the console keeps the app's own. When the cache
 * cannot be written (a read-only deploy), the kernel boots as it is and the result says so.
 */
final class KernelWiring
{
    private function __construct(
        /** Whether the kernel's container has Spindle's clients. */
        public readonly bool $installed,
        public readonly string $description,
    ) {
    }

    public static function install(Kernel $kernel): self
    {
        /** @return array{string, mixed} how, and what the container's ClientsPass wired */
        $prepare = \Closure::bind(static function (Kernel $kernel): array {
            $kernel->initializeBundles();
            foreach ($kernel->bundles as $bundle) {
                if ($bundle instanceof SpindleBundle) {
                    $kernel->bundles = [];

                    return ['listed in config/bundles.php', null];
                }
            }
            try {
                $spindle = new SpindleBundle();
                $kernel->bundles[$spindle->getName()] = $spindle;
                $kernel->initializeContainer();
                $container = $kernel->container;
                if ($container instanceof ContainerInterface && $container->hasParameter(ClientsPass::MARKER)) {
                    return ['added to the app\'s bundles', $container->getParameter(ClientsPass::MARKER)];
                }
                // The cached container was built without Spindle's bundle (bin/console, a cache
                // warm-up): build it again, with it, in its place; one worker at a time, the
                // others then find it built.
                $class = $kernel->getContainerClass();
                $cache = new ConfigCache($kernel->getBuildDir() . '/' . $class . '.php', $kernel->debug);
                $lock = \fopen($cache->getPath() . '.spindle.lock', 'c');
                if ($lock === false || !\flock($lock, \LOCK_EX)) {
                    throw new \RuntimeException('cannot lock ' . $cache->getPath() . '.spindle.lock');
                }
                try {
                    $built = \is_file($cache->getPath()) ? (static fn (string $path): mixed => include $path)($cache->getPath()) : null;
                    if ($built instanceof ContainerInterface && $built->hasParameter(ClientsPass::MARKER)) {
                        return ['added to the app\'s bundles', $built->getParameter(ClientsPass::MARKER)];
                    }
                    $builder = $kernel->buildContainer();
                    $builder->compile();
                    $kernel->dumpContainer($cache, $builder, $class, $kernel->getContainerBaseClass());
                } finally {
                    \flock($lock, \LOCK_UN);
                    \fclose($lock);
                }

                return ['added to the app\'s bundles, container rebuilt', $builder->getParameter(ClientsPass::MARKER)];
            } finally {
                // boot() takes it from here: it lists the app's bundles again and loads the cached container.
                $kernel->container = null;
                $kernel->bundles = [];
            }
        }, null, Kernel::class);

        try {
            [$how, $wired] = $prepare($kernel);
        } catch (\Throwable $e) {
            return new self(false, \sprintf('the app keeps its own database, Redis and HTTP clients: its container could not be built with SpindleBundle (%s: %s)', $e::class, $e->getMessage()));
        }
        if ($wired === null) {
            return new self(true, 'Spindle\'s clients for the services SpindleBundle finds (' . $how . ')');
        }
        $wired = \is_array($wired) ? \array_filter($wired, \is_string(...)) : [];

        return new self(true, $wired === []
            ? 'no service of the app uses a client Spindle replaces (SpindleBundle ' . $how . ')'
            : 'Spindle\'s clients for ' . \implode(', ', $wired) . ' (SpindleBundle ' . $how . ')');
    }
}
