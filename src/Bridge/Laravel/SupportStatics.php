<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

/**
 * The one table of the static properties Spindle swaps with the app instance (each request's
 * fiber sees its instance's values): class => property names. Laravel's own (FRAMEWORK: the
 * container instance, the facade root and the objects facades resolved, Eloquent's connection
 * resolver, event dispatcher and booted models, the pagination resolvers), what a boot registers
 * with closures of the instance (BOOTED), the support statics
 * of Laravel 9 to 12 (HOOKS, SWAPPED: `once()`'s cache, the `Number` locale and currency, the
 * `Str` factories, the app `HandleExceptions` reports to), Livewire 3's (LIVEWIRE, when
 * registered) and the app's or its packages' `config('spindle.statics')`. Classes and properties
 * the running versions lack are left out. (Carbon's locale and test time live in Carbon's
 * factory, not in properties: StaticState carries them through Carbon's methods.)
 *
 * capture() reads the values, restore() writes them back, restoreDefaults() puts the declared
 * defaults (where a new instance boots from). Each class's properties are read and written by
 * one closure bound to its scope, made once here: a switch between instances (on a fiber
 * resume) makes no closure and no reflection call. SupportHooksResetter puts HOOKS back after
 * a request.
 */
final class SupportStatics
{
    /** Laravel's own process-wide statics, in every version Spindle supports: class => properties. */
    public const FRAMEWORK = [
        'Illuminate\Container\Container' => ['instance'],
        'Illuminate\Support\Facades\Facade' => ['app', 'resolvedInstance'],
        'Illuminate\Database\Eloquent\Model' => ['resolver', 'dispatcher', 'booted', 'globalScopes', 'traitInitializers'],
        ...self::PAGINATION,
    ];

    /**
     * The pagination resolvers (path, current page, query string, view factory, cursor), part of
     * FRAMEWORK; Reset\PaginationResetter also puts them back after each request.
     */
    public const PAGINATION = [
        'Illuminate\Pagination\AbstractPaginator' => ['currentPathResolver', 'currentPageResolver', 'queryStringResolver', 'viewFactoryResolver'],
        'Illuminate\Pagination\AbstractCursorPaginator' => ['currentCursorResolver'],
    ];

    /** The hooks a request may set and SupportHooksResetter restores: class => properties. */
    public const HOOKS = [
        'Illuminate\Support\Str' => ['uuidFactory', 'ulidFactory', 'randomStringFactory'],
        'Illuminate\Support\Number' => ['locale', 'currency'],
    ];

    /**
     * What an instance's boot registers in process-wide statics as closures of its own service
     * providers, which hold its whole app: artisan's bootstrappers, the queue's payload
     * callbacks, the route loaders, the closure serializer's hooks. Each instance keeps its own:
     * an instance the pool lets go is freed with its connections instead of staying reachable
     * from a static for the life of the worker, and one instance's jobs never run the payload
     * callbacks every other instance registered.
     */
    public const BOOTED = [
        'Illuminate\Console\Application' => ['bootstrappers'],
        'Illuminate\Queue\Queue' => ['createPayloadCallbacks'],
        'Illuminate\Foundation\Support\Providers\RouteServiceProvider' => ['alwaysLoadRoutesUsing', 'alwaysLoadCachedRoutesUsing'],
        'Laravel\SerializableClosure\Serializers\Native' => ['transformUseVariables', 'resolveUseVariables'],
    ];

    /** Per-request values that only the instance swap carries: class => properties. */
    public const SWAPPED = [
        'Illuminate\Support\Once' => ['instance'],
        'Illuminate\Foundation\Bootstrap\HandleExceptions' => ['app'],
    ];

    /**
     * Livewire 3's statics that hold one request's rendering state (the component and render
     * stacks, the components' hooks, assets rendered, redirects, pending child parameters, …)
     * or what its boot registers (hooks, persistent middleware, Blade components): each app
     * instance keeps its own, so overlapping requests never share them and a booting instance
     * never resets those of a running request.
     */
    public const LIVEWIRE = [
        'Livewire\Mechanisms\HandleComponents\HandleComponents' => ['renderStack', 'componentStack'],
        'Livewire\ComponentHookRegistry' => ['components', 'componentHooks'],
        'Livewire\Mechanisms\PersistentMiddleware\PersistentMiddleware' => ['persistentMiddleware'],
        'Livewire\Mechanisms\ExtendBlade\ExtendBlade' => ['livewireComponents'],
        'Livewire\Features\SupportStreaming\SupportStreaming' => ['response'],
        'Livewire\Features\SupportReactiveProps\SupportReactiveProps' => ['pendingChildParams'],
        'Livewire\Features\SupportRedirects\SupportRedirects' => ['redirectorCacheStack', 'atLeastOneMountedComponentHasRedirected'],
        'Livewire\Features\SupportLegacyModels\SupportLegacyModels' => ['rules'],
        'Livewire\Features\SupportAutoInjectedAssets\SupportAutoInjectedAssets' => ['hasRenderedAComponentThisRequest', 'forceAssetInjection'],
        'Livewire\Features\SupportScriptsAndAssets\SupportScriptsAndAssets' => ['alreadyRunAssetKeys', 'countersByViewPath', 'renderedAssets', 'nonLivewireAssets'],
        'Livewire\Features\SupportMorphAwareBladeCompilation\SupportMorphAwareBladeCompilation' => ['shouldInjectConditionalMarkers', 'shouldInjectLoopMarkers'],
        'Livewire\Features\SupportCompiledWireKeys\SupportCompiledWireKeys' => ['loopStack', 'currentLoop'],
        'Livewire\Features\SupportLazyLoading\SupportLazyLoading' => ['disableWhileTesting'],
        'Livewire\Features\SupportDisablingBackButtonCache\SupportDisablingBackButtonCache' => ['disableBackButtonCache'],
        'Livewire\Features\SupportWireModelingNestedComponents\SupportWireModelingNestedComponents' => ['outersByComponentId'],
    ];

    /** @var array<string, \ReflectionProperty> "Class::$property" => its property */
    private readonly array $properties;
    /**
     * A reference to each static of the table, in table order: a swap reads and writes through
     * them, without looking a property up by its name.
     *
     * @var array<int, mixed>
     */
    private array $slots = [];

    /** @param array<string, list<string>> $classes */
    public function __construct(array $classes)
    {
        $properties = [];
        foreach ($classes as $class => $names) {
            if (!\class_exists($class)) {
                continue;
            }
            foreach ($names as $name) {
                if (!\property_exists($class, $name)) {
                    continue;
                }
                $property = new \ReflectionProperty($class, $name);
                $label = $class . '::$' . $name;
                if (!$property->isStatic() || isset($properties[$label])) {
                    continue;
                }
                if (!$property->isInitialized()) {
                    throw new \InvalidArgumentException(\sprintf('spindle.statics: %s is a typed static property without a value; give it a default to have it swapped per instance', $label));
                }
                $properties[$label] = $property;
                self::bind($this->slots, $property->getDeclaringClass()->name, $name);
            }
        }
        $this->properties = $properties;
    }

    /**
     * The whole table for one app, as forApp() builds it from its parts: class => properties.
     *
     * @return array<string, list<string>>
     */
    public static function table(bool $livewire = false): array
    {
        return \array_merge(self::FRAMEWORK, self::HOOKS, self::SWAPPED, self::BOOTED, $livewire ? self::LIVEWIRE : []);
    }

    /** Every static of FRAMEWORK, HOOKS, SWAPPED and BOOTED that the running Laravel has. */
    public static function all(): self
    {
        return new self(self::table());
    }

    /**
     * The swapped table for one app: FRAMEWORK, HOOKS, SWAPPED and BOOTED, LIVEWIRE when $livewire (Livewire 3 is
     * registered in the app: LivewireResetter::registeredIn()), and $extra (the app's
     * `spindle.statics`). Call it when an instance boots, never per request.
     *
     * @param array<mixed> $extra class => list of static property names; a malformed entry
     *                            throws, naming it
     */
    public static function forApp(array $extra = [], bool $livewire = false): self
    {
        $table = self::table($livewire);
        foreach ($extra as $class => $names) {
            if (!\is_string($class) || !\is_array($names) || !\array_is_list($names) || \array_filter($names, \is_string(...)) !== $names) {
                throw new \InvalidArgumentException(\sprintf('spindle.statics must map class names to lists of static property names, got %s => %s', \var_export($class, true), \get_debug_type($names)));
            }
            /** @var list<string> $names */
            $table[$class] = \array_values(\array_unique(\array_merge($table[$class] ?? [], $names)));
        }

        return new self($table);
    }

    /** @return list<string> the statics covered, as "Class::$property" */
    public function names(): array
    {
        return \array_keys($this->properties);
    }

    public static function hooks(): self
    {
        return new self(self::HOOKS);
    }

    /** @return array<int, mixed> the values now, as restore() takes them */
    public function capture(): array
    {
        $values = [];
        foreach ($this->slots as $value) {
            $values[] = $value;
        }

        return $values;
    }

    /**
     * Sets each to the default its class declares: a new instance boots from there, not from
     * what the instance that was running (maybe in the middle of a request) left in them.
     */
    public function restoreDefaults(): void
    {
        $i = 0;
        foreach ($this->properties as $property) {
            $this->slots[$i++] = $property->getDefaultValue();
        }
    }

    /** @param array<int, mixed> $values as capture() returned them */
    public function restore(array $values): void
    {
        foreach ($values as $i => $value) {
            $this->slots[$i] = $value;
        }
    }

    /**
     * Appends to $slots a reference to the static $scope::$$name (a reference, so that writing
     * the slot writes the static).
     *
     * @param array<int, mixed> $slots
     * @param class-string $scope
     */
    private static function bind(array &$slots, string $scope, string $name): void
    {
        $bind = \Closure::bind(static function (array &$slots) use ($name): void {
            $slots[] = &static::${$name};
        }, null, $scope);
        \assert($bind !== null);
        $bind($slots);
    }
}
