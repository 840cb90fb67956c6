<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

/**
 * Static properties of Laravel 9 to 12's support classes that hold one request's choices or
 * values for the whole process: `once()`'s cache, the `Number` locale and currency, the `Str`
 * factories for UUIDs, ULIDs and random strings, and the app that `HandleExceptions` reports to
 * (static since Laravel 11). Those that the running Laravel lacks are left out.
 *
 * capture() reads them, restore() writes them back: StaticState swaps them with the app
 * instance (each request's fiber sees its own), SupportHooksResetter puts the booted values
 * back after a request.
 *
 * The swapped table is extensible: packages Spindle knows (LIVEWIRE, when registered) and the
 * app's `config('spindle.statics')` (class => property names) are swapped the same way
 * (forApp()).
 */
final class SupportStatics
{
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

    /** @var array<string, \ReflectionProperty> */
    private readonly array $properties;

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
                if ($property->isStatic()) {
                    $properties[$class . '::$' . $name] = $property;
                }
            }
        }
        $this->properties = $properties;
    }

    /** Every static of HOOKS and SWAPPED that the running Laravel has. */
    public static function all(): self
    {
        return new self(\array_merge(self::HOOKS, self::SWAPPED));
    }

    /**
     * The swapped table for one app: HOOKS and SWAPPED, LIVEWIRE when $livewire (Livewire 3 is
     * registered in the app: LivewireResetter::registeredIn()), and $extra (the app's
     * `spindle.statics`). Call it when an instance boots, never per request.
     *
     * @param array<mixed> $extra class => list of static property names; a malformed entry
     *                            throws, naming it
     */
    public static function forApp(array $extra = [], bool $livewire = false): self
    {
        $table = \array_merge(self::HOOKS, self::SWAPPED);
        if ($livewire) {
            $table = \array_merge($table, self::LIVEWIRE);
        }
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

    /** @return array<string, mixed> the values now, keyed "Class::$property" */
    public function capture(): array
    {
        $values = [];
        foreach ($this->properties as $key => $property) {
            $values[$key] = $property->getValue();
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

    /** @param array<string, mixed> $values as capture() returned them */
    public function restore(array $values): void
    {
        foreach ($this->properties as $key => $property) {
            if (\array_key_exists($key, $values) && $property->getValue() !== $values[$key]) {
                $property->setValue(null, $values[$key]);
            }
        }
    }
}
