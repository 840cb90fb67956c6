<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;

/**
 * The object of a shared service that the instance resolved while it booted, for a resetter to
 * keep: the container's restore after every request (ContainerResetter) puts that very object
 * back, so the resetter can clean it without asking the container each time. A make() is about
 * fifteen calls (aliases, deferred providers, contextual bindings, before-resolving callbacks);
 * nine resetters asked it every request, 10 makes and some 150 calls of a Laravel 12 `/hello`.
 *
 * A service the instance had not resolved at boot gives null: the resetter then asks the
 * container as before (such a service, made during a request, is dropped by the restore).
 */
final class BootedService
{
    /**
     * @template T of object
     *
     * @param class-string<T> $type
     *
     * @return T|null
     */
    public static function of(Application $app, string $abstract, string $type): ?object
    {
        if (!$app->resolved($abstract) || !$app->isShared($abstract)) {
            return null;
        }
        $service = $app->make($abstract);

        return $service instanceof $type ? $service : null;
    }
}
