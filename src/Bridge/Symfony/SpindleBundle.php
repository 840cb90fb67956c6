<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Spindle\Bridge\Symfony\Clients\ClientsPass;
use Spindle\Bridge\Symfony\PasswordHasher\PasswordHashersPass;
use Symfony\Component\DependencyInjection\Compiler\PassConfig;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\HttpKernel\Bundle\Bundle;

/**
 * Spindle's clients for a Symfony app's DoctrineBundle connections, Redis cache pools and
 * sessions and `http_client` (see ClientsPass), and SecurityBundle's password hashing in the
 * task workers (PasswordHashersPass). `spindle serve` and Spindle's runtime add it to
 * the kernels they boot (KernelWiring); an app lists it in config/bundles.php only to have it in
 * the container bin/console builds, e.g. when a deploy warms the cache in a read-only image.
 */
final class SpindleBundle extends Bundle
{
    public function build(ContainerBuilder $container): void
    {
        // After framework.cache's CachePoolPass (32), before DoctrineBundle's MiddlewaresPass (0).
        $container->addCompilerPass(ClientsPass::doctrine(), PassConfig::TYPE_BEFORE_OPTIMIZATION, 16);
        $container->addCompilerPass(ClientsPass::services(), PassConfig::TYPE_BEFORE_REMOVING);
        $container->addCompilerPass(new PasswordHashersPass(), PassConfig::TYPE_BEFORE_OPTIMIZATION);
    }
}
