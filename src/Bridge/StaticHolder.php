<?php

declare(strict_types=1);

namespace Spindle\Bridge;

/**
 * Names the static property through which an object is still reachable: a breadth-first walk
 * from the static properties and static variables of the user-defined classes and functions
 * loaded and from the global variables, through arrays, object
 * properties (all of them, private ones included) and closures (their bound object and their
 * `use` variables), up to a budget of values visited. It answers "what keeps this app instance
 * alive?" when one that should have been freed was not; the walk is too slow for a request's path
 * (it may visit the whole heap) and is meant for the rare moment a leak is found.
 */
final class StaticHolder
{
    private function __construct()
    {
    }

    /**
     * The path from a static to $target ("Class::$property[key]->property{use $name}…"), or null
     * when no static reaches it within $budget values (a fiber's stack, say, is not walked).
     */
    public static function find(object $target, int $budget = 500_000): ?string
    {
        /** @var \SplQueue<array{mixed, string}> $queue */
        $queue = new \SplQueue();
        foreach (\get_declared_classes() as $class) {
            $reflection = new \ReflectionClass($class);
            if ($reflection->isInternal()) {
                continue;
            }
            foreach ($reflection->getProperties(\ReflectionProperty::IS_STATIC) as $property) {
                if ($property->getDeclaringClass()->name === $class && $property->isInitialized()) {
                    $queue->enqueue([$property->getValue(), $class . '::$' . $property->name]);
                }
            }
            foreach ($reflection->getMethods() as $method) {
                if ($method->getDeclaringClass()->name === $class) {
                    foreach ($method->getStaticVariables() as $name => $value) {
                        $queue->enqueue([$value, $class . '::' . $method->name . '() static $' . $name]);
                    }
                }
            }
        }
        foreach (\get_defined_functions()['user'] as $function) {
            foreach ((new \ReflectionFunction($function))->getStaticVariables() as $name => $value) {
                $queue->enqueue([$value, $function . '() static $' . $name]);
            }
        }
        foreach (\spl_autoload_functions() as $i => $loader) {
            $queue->enqueue([$loader, 'spl_autoload_functions()[' . $i . ']']);
        }
        foreach ($GLOBALS as $name => $value) {
            if ($name !== 'GLOBALS') {
                $queue->enqueue([$value, '$' . $name]);
            }
        }
        $seen = [];
        while (!$queue->isEmpty() && $budget-- > 0) {
            [$value, $path] = $queue->dequeue();
            if (\is_array($value)) {
                foreach ($value as $key => $item) {
                    if (\is_array($item) || \is_object($item)) {
                        $queue->enqueue([$item, $path . '[' . $key . ']']);
                    }
                }
                continue;
            }
            if (!\is_object($value) || isset($seen[$id = \spl_object_id($value)])) {
                continue;
            }
            $seen[$id] = true;
            if ($value === $target) {
                return $path;
            }
            foreach (self::edges($value) as $label => $next) {
                $queue->enqueue([$next, $path . $label]);
            }
        }

        return null;
    }

    /** @return iterable<string, mixed> what $object holds, each with its step of the path */
    private static function edges(object $object): iterable
    {
        if ($object instanceof \WeakReference) {
            return;
        }
        if ($object instanceof \WeakMap) {
            // Its keys are weak, its values are not.
            foreach ($object as $key => $value) {
                yield '[' . $key::class . ' value]' => $value;
            }

            return;
        }
        if ($object instanceof \Closure) {
            $function = new \ReflectionFunction($object);
            $bound = $function->getClosureThis();
            if ($bound !== null) {
                yield '{$this}' => $bound;
            }
            foreach ($function->getStaticVariables() as $name => $value) {
                yield '{use $' . $name . '}' => $value;
            }

            return;
        }
        if ($object instanceof \SplObjectStorage) {
            foreach ($object as $i => $key) {
                yield '[' . $i . ']' => $key;
                yield '[' . $i . ' data]' => $object[$key];
            }
        }
        foreach ((array) $object as $key => $value) {
            if (\is_array($value) || \is_object($value)) {
                // Private and protected keys of an (array) cast start with "\0Class\0" or "\0*\0".
                $name = \str_starts_with((string) $key, "\0") ? \substr((string) $key, (int) \strrpos((string) $key, "\0") + 1) : (string) $key;
                yield '->' . $name => $value;
            }
        }
    }
}
