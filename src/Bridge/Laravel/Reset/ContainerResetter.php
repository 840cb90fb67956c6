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
 *
 * Two arrays of Laravel 11 and later are memos of what classes declare, not state: which classes
 * were looked at for a `#[Bind]` attribute, and each class's `#[Singleton]` / `#[Scoped]`
 * attribute. Thrown away, every request read every class it resolves again through reflection
 * (on a Laravel 12 `/hello`, 15 `ReflectionClass` objects and 45 attribute reads per request,
 * 3 % of its instructions). They are kept, as a fresh container would fill them the same way:
 * a class's attributes do not change while the process runs. Only a class whose check made a
 * binding (its `#[Bind]`) is forgotten with that binding, so that the next request finds the
 * attribute and binds it again.
 */
final class ContainerResetter implements Resetter
{
    /** Memo arrays (Laravel 11+) kept as the requests fill them; see the class comment. */
    private const CHECKED_BIND = 'checkedForAttributeBindings';
    private const CHECKED_LIFETIME = 'checkedForSingletonOrScopedAttributes';

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
        $memo = isset($snapshot[self::CHECKED_BIND]);
        unset($snapshot[self::CHECKED_BIND], $snapshot[self::CHECKED_LIFETIME]);
        $this->snapshot = $snapshot;
        $bootBindings = $snapshot['bindings'] ?? [];
        $checked = self::CHECKED_BIND;
        $restore = \Closure::bind(static function (array $snapshot) use ($app, $memo, $bootBindings, $checked): void {
            if ($memo && $app->bindings !== $bootBindings) {
                // A binding the request made: if a #[Bind] check made it, that check is forgotten
                // with it (the identity test above is one pointer comparison when none was made).
                $app->{$checked} = \array_diff_key( // @phpstan-ignore property.notFound
                    $app->{$checked}, // @phpstan-ignore property.notFound
                    \array_diff_key($app->bindings, $bootBindings),
                );
            }
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
