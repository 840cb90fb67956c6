<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Container\Container;
use Illuminate\Foundation\Application;

/**
 * Puts the container back as it was once booted: bindings, instances, aliases, extenders, tags,
 * contextual bindings, rebinding and resolving callbacks, resolved flags, scoped instances,
 * service providers and terminating callbacks — every array the container keeps. What a request
 * added (`instance()`, a singleton it resolved first, `extend()`, a guard's `rebinding('request')`
 * callback, a deferred provider it loaded) is gone for the next request, as under PHP-FPM where
 * the container is built anew.
 *
 * The snapshot is the arrays themselves (PHP copies them only when written), restored by plain
 * assignment, which costs less than comparing them first.
 */
final class ContainerResetter implements Resetter
{
    /** @var array<string, array<mixed>> */
    private readonly array $snapshot;
    /** @var \Closure(array<string, array<mixed>>): void */
    private readonly \Closure $restore;

    public function __construct(Application $app)
    {
        $read = \Closure::bind(static function (Application $app): array {
            return \array_filter(\get_object_vars($app), \is_array(...));
        }, null, Container::class);
        \assert($read !== null);
        /** @var array<string, array<mixed>> $snapshot */
        $snapshot = $read($app);
        $this->snapshot = $snapshot;
        $restore = \Closure::bind(static function (array $snapshot) use ($app): void {
            foreach ($snapshot as $property => $value) {
                $app->{$property} = $value;
            }
        }, null, Container::class);
        \assert($restore !== null);
        $this->restore = $restore;
    }

    public function reset(): void
    {
        ($this->restore)($this->snapshot);
    }
}
