<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

/**
 * The one table of the static properties Spindle swaps with the app instance (each request's
 * fiber sees its instance's values): class => property names. Laravel's own (FRAMEWORK: the
 * container instance, the facade root and the objects facades resolved, Eloquent's connection
 * resolver, event dispatcher and booted models, the pagination resolvers), the support statics
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
        'Illuminate\Pagination\AbstractPaginator' => ['currentPathResolver', 'currentPageResolver', 'queryStringResolver', 'viewFactoryResolver'],
        'Illuminate\Pagination\AbstractCursorPaginator' => ['currentCursorResolver'],
    ];

    /** The hooks a request may set and SupportHooksResetter restores: class => properties. */
    public const HOOKS = [
        'Illuminate\Support\Str' => ['uuidFactory', 'ulidFactory', 'randomStringFactory'],
        'Illuminate\Support\Number' => ['locale', 'currency'],
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
     * Per declaring class: a reader of its listed statics (in order) and a writer taking them.
     *
     * @var list<array{\Closure(): list<mixed>, \Closure(list<mixed>): void}>
     */
    private readonly array $accessors;

    /** @param array<string, list<string>> $classes */
    public function __construct(array $classes)
    {
        $properties = [];
        /** @var array<class-string, list<string>> $byScope */
        $byScope = [];
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
                if ($property->isStatic() && !isset($properties[$label])) {
                    $properties[$label] = $property;
                    $byScope[$property->getDeclaringClass()->name][] = $name;
                }
            }
        }
        $this->properties = $properties;
        $accessors = [];
        foreach ($byScope as $scope => $names) {
            $accessors[] = [self::reader($scope, $names), self::writer($scope, $names)];
        }
        $this->accessors = $accessors;
    }

    /**
     * The whole table for one app, as forApp() builds it from its parts: class => properties.
     *
     * @return array<string, list<string>>
     */
    public static function table(bool $livewire = false): array
    {
        return \array_merge(self::FRAMEWORK, self::HOOKS, self::SWAPPED, $livewire ? self::LIVEWIRE : []);
    }

    /** Every static of FRAMEWORK, HOOKS and SWAPPED that the running Laravel has. */
    public static function all(): self
    {
        return new self(self::table());
    }

    /**
     * The swapped table for one app: FRAMEWORK, HOOKS and SWAPPED, LIVEWIRE when $livewire (Livewire 3 is
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

    /** @return list<list<mixed>> the values now, as restore() takes them */
    public function capture(): array
    {
        $values = [];
        foreach ($this->accessors as [$read]) {
            $values[] = $read();
        }

        return $values;
    }

    /**
     * Sets each to the default its class declares: a new instance boots from there, not from
     * what the instance that was running (maybe in the middle of a request) left in them.
     */
    public function restoreDefaults(): void
    {
        foreach ($this->properties as $property) {
            $property->setValue(null, $property->getDefaultValue());
        }
    }

    /** @param list<list<mixed>> $values as capture() returned them */
    public function restore(array $values): void
    {
        foreach ($this->accessors as $i => [, $write]) {
            $write($values[$i]);
        }
    }

    /**
     * @param class-string $scope
     * @param list<string> $names
     *
     * @return \Closure(): list<mixed>
     */
    private static function reader(string $scope, array $names): \Closure
    {
        $reader = \Closure::bind(static function () use ($names): array {
            $values = [];
            foreach ($names as $name) {
                $values[] = static::${$name};
            }

            return $values;
        }, null, $scope);
        \assert($reader !== null);

        return $reader;
    }

    /**
     * @param class-string $scope
     * @param list<string> $names
     *
     * @return \Closure(list<mixed>): void
     */
    private static function writer(string $scope, array $names): \Closure
    {
        $writer = \Closure::bind(static function (array $values) use ($names): void {
            foreach ($names as $i => $name) {
                static::${$name} = $values[$i];
            }
        }, null, $scope);
        \assert($writer !== null);

        return $writer;
    }
}
