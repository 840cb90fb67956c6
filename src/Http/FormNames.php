<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Places form values into nested arrays by their field name, following the rules PHP
 * itself applies when it fills $_GET, $_POST and $_COOKIE:
 *
 *  - the name ends at the first NUL byte and leading spaces are dropped;
 *  - in the top-level part of the name (before the first "["), " " and "." become "_";
 *  - "a[b][c]" nests, "a[]" appends; one space right after "[" is skipped only to
 *    recognise "[ ]" as an append, otherwise it stays part of the key;
 *  - a "[" without a closing "]" is not an index: on the first level it becomes "_" and
 *    every " ", "." and "[" after it becomes "_" as well ("a[b.c" is "a_b_c"); on a deeper
 *    level the rest of the name is ignored;
 *  - anything after a "]" that is not "[" is ignored ("a[b]c" is "a[b]");
 *  - numeric keys become integers exactly as PHP array keys do;
 *  - an existing scalar in the way of a nested name is replaced by an array;
 *  - a name nested deeper than the depth limit (64 by default, like
 *    max_input_nesting_level) is dropped together with everything already stored under
 *    its top-level name;
 *  - "[]" appends at one past the largest integer key, even a negative one;
 *  - an empty top-level name is dropped, and so is an append onto an array that already
 *    holds PHP_INT_MAX.
 */
final class FormNames
{
    public const DEFAULT_MAX_DEPTH = 64;

    private function __construct()
    {
    }

    /**
     * @param array<array-key, mixed> $target
     * @param bool $keepExisting when true an existing leaf is left alone (first occurrence wins, as for cookies)
     */
    public static function assign(
        array &$target,
        string $name,
        mixed $value,
        bool $keepExisting = false,
        int $maxDepth = self::DEFAULT_MAX_DEPTH,
    ): void {
        $parsed = self::parse($name, $maxDepth);
        if ($parsed === null) {
            return;
        }
        [$top, $keys] = $parsed;
        if ($keys === false) {
            // Nested deeper than allowed: the whole top-level entry goes away.
            unset($target[$top]);

            return;
        }

        $container = &$target;
        $key = $top;
        foreach ($keys as $next) {
            if ($key === null) {
                $key = self::nextIndex($container);
                if ($key === null) {
                    return;
                }
                $container[$key] = [];
            } elseif (!\array_key_exists($key, $container) || !\is_array($container[$key])) {
                $container[$key] = [];
            }
            $container = &$container[$key];
            $key = $next;
        }

        if ($key === null) {
            $key = self::nextIndex($container);
            if ($key === null) {
                return;
            }
        }
        if ($keepExisting && \array_key_exists($key, $container)) {
            return;
        }
        $container[$key] = $value;
    }

    /**
     * The key an append gets: one past the largest integer key (even a negative one:
     * "a[-3]=x&a[]=y" gives keys -3 and -2, as PHP's input parser does), or 0 when there is
     * no integer key. Null when PHP_INT_MAX is taken and nothing can be appended.
     *
     * @param array<array-key, mixed> $array
     */
    private static function nextIndex(array $array): ?int
    {
        if (\array_is_list($array)) {
            return \count($array);
        }
        $max = null;
        foreach ($array as $key => $_) {
            if (\is_int($key) && ($max === null || $key > $max)) {
                $max = $key;
            }
        }
        if ($max === null) {
            return 0;
        }

        return $max === \PHP_INT_MAX ? null : $max + 1;
    }

    /**
     * Splits a field name the way PHP does.
     *
     * @return array{0: string, 1: list<string|null>|false}|null null when the name is dropped;
     *         the key list is false when the nesting limit was exceeded; null keys mean "append"
     */
    public static function parse(string $name, int $maxDepth = self::DEFAULT_MAX_DEPTH): ?array
    {
        $nul = \strpos($name, "\0");
        if ($nul !== false) {
            $name = \substr($name, 0, $nul);
        }
        $name = \ltrim($name, ' ');
        $length = \strlen($name);

        $open = \strpos($name, '[');
        $top = \strtr($open === false ? $name : \substr($name, 0, $open), ' .', '__');
        if ($top === '') {
            return null;
        }
        if ($open === false) {
            return [$top, []];
        }

        $keys = [];
        $level = 0;
        $pos = $open;
        while (true) {
            if (++$level > $maxDepth) {
                return [$top, false];
            }
            $start = $pos + 1;
            $scan = $start;
            if ($scan < $length && $name[$scan] === ' ') {
                ++$scan;
            }
            if ($scan < $length && $name[$scan] === ']') {
                $keys[] = null;
                $close = $scan;
            } else {
                $close = $scan < $length ? \strpos($name, ']', $scan) : false;
                if ($close === false) {
                    if ($keys === []) {
                        // Not an index after all: it all becomes part of the top-level name.
                        $top .= '_' . \strtr(\substr($name, $start), ' .[', '___');
                    }
                    break;
                }
                $keys[] = \substr($name, $start, $close - $start);
            }
            $pos = $close + 1;
            if ($pos >= $length || $name[$pos] !== '[') {
                break;
            }
        }

        return [$top, $keys];
    }
}
