<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\PasswordHasher;

use Symfony\Component\DependencyInjection\Compiler\CompilerPassInterface;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\Reference;

/**
 * When the app has SecurityBundle's password hasher factory, decorates it with
 * TaskPasswordHasherFactory (SpindleBundle adds this pass before the container's optimization,
 * where decorations are resolved).
 */
final class PasswordHashersPass implements CompilerPassInterface
{
    public const FACTORY = 'security.password_hasher_factory';
    public const DECORATOR = 'spindle.password_hasher_factory';

    public function process(ContainerBuilder $container): void
    {
        if (!$container->has(self::FACTORY) || $container->hasDefinition(self::DECORATOR)) {
            return;
        }
        $container->register(self::DECORATOR, TaskPasswordHasherFactory::class)
            ->setDecoratedService(self::FACTORY)
            ->setArguments([new Reference(self::DECORATOR . '.inner')]);
    }
}
