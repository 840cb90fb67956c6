<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

/** @internal Argument conversion as phpredis does it (no serializer): scalars to strings, keys prefixed. */
final class Args
{
    private function __construct()
    {
    }

    public static function value(mixed $value): string
    {
        return match (true) {
            \is_string($value) => $value,
            \is_int($value) => (string) $value,
            \is_float($value) => self::float($value),
            \is_bool($value) => $value ? '1' : '',
            $value === null => '',
            $value instanceof \Stringable => (string) $value,
            default => \is_array($value) ? 'Array' : 'Object',
        };
    }

    public static function float(float $value): string
    {
        if (is_infinite($value)) {
            return $value > 0 ? 'inf' : '-inf';
        }

        return (string) $value;
    }

    /**
     * Variadic arguments or one array of them, flattened.
     *
     * @param array<int|string, mixed> $arguments
     *
     * @return list<mixed>
     */
    public static function spread(array $arguments): array
    {
        $arguments = array_values($arguments);
        if (\count($arguments) === 1 && \is_array($arguments[0])) {
            return array_values($arguments[0]);
        }

        return $arguments;
    }

    /**
     * @param array<int|string, mixed> $keys
     *
     * @return list<string>
     */
    public static function keys(string $prefix, array $keys): array
    {
        return array_map(static fn (mixed $key): string => $prefix . self::value($key), array_values($keys));
    }

    /**
     * @param array<int|string, mixed> $values
     *
     * @return list<string>
     */
    public static function values(array $values): array
    {
        return array_map(self::value(...), array_values($values));
    }
}
