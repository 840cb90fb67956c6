<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * The objects FETCH_CLASS, FETCH_INTO and fetchObject() make and fill, as PHP's PDO does: made
 * without their constructor, properties set from the class's own scope (private and protected
 * ones too), the constructor run with the statement's argument array by reference; and the
 * class and callback checks of the fetch modes.
 *
 * @internal
 */
final class FetchedObjects
{
    /** @var array<string, \Closure(object, string, mixed): void> property writers by class */
    private array $writers = [];

    /** @param class-string $class */
    public static function instantiate(string $class): object
    {
        return (new \ReflectionClass($class))->newInstanceWithoutConstructor();
    }

    /**
     * Runs the constructor with the statement's own argument array, element by element by
     * reference like PHP's FETCH_CLASS: a constructor taking `&$arg` gets the stored value and
     * what it writes there is what the next row's constructor sees.
     *
     * @param list<mixed>|null $args
     */
    public static function construct(object $object, ?array &$args): void
    {
        $constructor = (new \ReflectionObject($object))->getConstructor();
        if ($constructor === null) {
            return;
        }
        $references = [];
        if ($args !== null) {
            foreach ($args as $i => &$value) {
                $references[$i] = &$value;
            }
            unset($value);
        }
        $constructor->invokeArgs($object, $references);
    }

    /**
     * Sets properties the way PHP's FETCH_CLASS does: from the scope of the fetch class, so its
     * private and protected properties are filled too.
     *
     * @param class-string $class
     *
     * @return \Closure(object, string, mixed): void
     */
    public function writer(string $class): \Closure
    {
        if (isset($this->writers[$class])) {
            return $this->writers[$class];
        }
        $write = static function (object $object, string $name, mixed $value): void {
            $object->{$name} = $value;
        };
        if (!(new \ReflectionClass($class))->isInternal()) {
            $write = \Closure::bind($write, null, $class) ?? $write;
        }

        return $this->writers[$class] = $write;
    }

    /** @return class-string|null the declared name of a class, loading it if needed */
    public static function findClass(string $name): ?string
    {
        if (!class_exists($name) && !interface_exists($name)) {
            return null;
        }

        return (new \ReflectionClass($name))->getName();
    }

    public static function notCallable(mixed $callable): string
    {
        if (\is_string($callable)) {
            return str_contains($callable, '::')
                ? sprintf('PDOStatement::fetchAll(): Argument #2 must be a valid callback, class "%s" not found', strstr($callable, '::', true))
                : sprintf('PDOStatement::fetchAll(): Argument #2 must be a valid callback, function "%s" not found or invalid function name', $callable);
        }
        if (\is_array($callable)) {
            return \count($callable) === 2
                ? 'PDOStatement::fetchAll(): Argument #2 must be a valid callback, first array member is not a valid class name or object'
                : 'PDOStatement::fetchAll(): Argument #2 must be a valid callback, array callback must have exactly two members';
        }

        return 'PDOStatement::fetchAll(): Argument #2 must be a valid callback, no array or string given';
    }
}
