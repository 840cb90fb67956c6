<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;

/**
 * A shared service a resetter cleans, and the object of it that the instance resolved while it
 * booted, which the resetter keeps: the container's restore after every request
 * (ContainerResetter) puts that very object back, so the resetter can clean it without asking
 * the container each time. A make() is about fifteen calls (aliases, deferred providers,
 * contextual bindings, before-resolving callbacks); nine resetters asked it every request, 10
 * makes and some 150 calls of a Laravel 12 `/hello`.
 *
 * A service the instance had not resolved at boot has no booted object: current() then asks the
 * container, and only when a request resolved it (such a service, made during a request, is
 * dropped by the restore).
 *
 * @template T of object
 */
final class BootedService
{
    /**
     * @param class-string<T> $type
     * @param T|null          $booted
     */
    private function __construct(
        private readonly Application $app,
        private readonly string $abstract,
        private readonly string $type,
        public readonly ?object $booted,
    ) {
    }

    /**
     * $abstract of $app, with the object the booted instance holds (when it resolved it, shared,
     * and of $type).
     *
     * @template S of object
     *
     * @param class-string<S> $type
     *
     * @return self<S>
     */
    public static function of(Application $app, string $abstract, string $type): self
    {
        $booted = null;
        if ($app->resolved($abstract) && $app->isShared($abstract)) {
            $service = $app->make($abstract);
            $booted = $service instanceof $type ? $service : null;
        }

        return new self($app, $abstract, $type, $booted);
    }

    /**
     * The service now: the booted object, else the container's when it was resolved (during the
     * request) and is of the type; null otherwise.
     *
     * @return T|null
     */
    public function current(): ?object
    {
        if ($this->booted !== null) {
            return $this->booted;
        }
        if (!$this->app->resolved($this->abstract)) {
            return null;
        }
        $service = $this->app->make($this->abstract);

        return $service instanceof $this->type ? $service : null;
    }

    /** Whether the booted instance or a request resolved it. */
    public function isResolved(): bool
    {
        return $this->booted !== null || $this->app->resolved($this->abstract);
    }
}
