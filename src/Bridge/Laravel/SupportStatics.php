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
