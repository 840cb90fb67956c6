<?php

declare(strict_types=1);

namespace Spindle\Bridge\StateCheck;

/**
 * The app's own classes among those loaded: declared in a file under the app's directory, but
 * not under vendor/, the framework's caches (var/, storage/, bootstrap/cache/) or Spindle's
 * source. For each, the static properties it declares and, for its objects, the properties app
 * classes declare (readonly ones left out: they cannot change once set).
 *
 * refresh() looks at the classes declared since it last ran, so a class the app loads in the
 * middle of its life is seen from then on.
 */
final class AppClasses
{
    /** Directories of an app that hold no app code (relative to it). */
    private const NOT_APP = ['vendor', 'var', 'storage', 'bootstrap/cache', 'node_modules'];

    private readonly string $root;
    /** @var list<string> */
    private readonly array $excluded;
    private int $scanned = 0;
    /** @var array<string, list<\ReflectionProperty>> app class => the static properties it declares */
    private array $statics = [];
    /**
     * Class => the keys of an (array) cast of its objects that app classes declare, each with
     * its label ("Class::$property"); null when no app class declares any.
     *
     * @var array<string, array<string, string>|null>
     */
    private array $instanceKeys = [];

    public function __construct(string $directory)
    {
        $root = \realpath($directory);
        if ($root === false) {
            throw new \InvalidArgumentException(\sprintf('The app directory %s does not exist', $directory));
        }
        $this->root = \rtrim($root, '/') . '/';
        $excluded = [];
        foreach (self::NOT_APP as $relative) {
            $excluded[] = $this->root . $relative . '/';
        }
        $spindle = \realpath(\dirname(__DIR__, 2));
        if ($spindle !== false) {
            $excluded[] = $spindle . '/';
        }
        $this->excluded = $excluded;
    }

    public function isAppFile(string|false $file): bool
    {
        if ($file === false || !\str_starts_with($file, $this->root)) {
            return false;
        }
        foreach ($this->excluded as $excluded) {
            if (\str_starts_with($file, $excluded)) {
                return false;
            }
        }

        return true;
    }

    /**
     * Takes in the classes declared since the last call.
     *
     * @return list<string> the app classes among them
     */
    public function refresh(): array
    {
        $declared = \get_declared_classes();
        $count = \count($declared);
        if ($count === $this->scanned) {
            return [];
        }
        $found = [];
        for ($i = $this->scanned; $i < $count; ++$i) {
            $class = new \ReflectionClass($declared[$i]);
            if (!$class->isUserDefined() || !$this->isAppFile($class->getFileName())) {
                continue;
            }
            $statics = [];
            foreach ($class->getProperties(\ReflectionProperty::IS_STATIC) as $property) {
                if ($property->getDeclaringClass()->name === $class->name) {
                    $statics[] = $property;
                }
            }
            $this->statics[$class->name] = $statics;
            $found[] = $class->name;
        }
        $this->scanned = $count;

        return $found;
    }

    /** @return array<string, list<\ReflectionProperty>> */
    public function statics(): array
    {
        return $this->statics;
    }

    /**
     * The keys of `(array) $object` for the properties app classes declare, with their labels;
     * null when there are none (a framework or vendor object).
     *
     * @return array<string, string>|null
     */
    public function instanceKeys(object $object): ?array
    {
        $class = $object::class;
        if (\array_key_exists($class, $this->instanceKeys)) {
            return $this->instanceKeys[$class];
        }
        $keys = [];
        for ($reflection = new \ReflectionClass($object); $reflection !== false; $reflection = $reflection->getParentClass()) {
            if (!$this->isAppFile($reflection->getFileName())) {
                continue;
            }
            foreach ($reflection->getProperties() as $property) {
                if ($property->isStatic() || $property->isReadOnly() || $property->getDeclaringClass()->name !== $reflection->name) {
                    continue;
                }
                $key = match (true) {
                    $property->isPrivate() => "\0" . $reflection->name . "\0" . $property->name,
                    $property->isProtected() => "\0*\0" . $property->name,
                    default => $property->name,
                };
                $keys[$key] = $reflection->name . '::$' . $property->name;
            }
        }

        return $this->instanceKeys[$class] = $keys === [] ? null : $keys;
    }
}
