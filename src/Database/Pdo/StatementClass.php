<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * PDO::ATTR_STATEMENT_CLASS: validating the value and making the statement objects.
 *
 * A class that extends Spindle\Database\Pdo\Statement is instantiated as it is. A class that
 * extends \PDOStatement directly (as written for native PDO) gets a generated subclass,
 * Spindle\Database\Pdo\Generated\<its name>, whose every PDOStatement method the class does not
 * override itself forwards to a Spindle Statement: `instanceof`, the class's own methods,
 * properties and constructor work as with native PDO. What PHP cannot give: a method of the
 * class that calls `parent::execute()` (or another `parent::` PDOStatement method) reaches the C
 * implementation, which has no driver statement behind it and fails with "PDO object is
 * uninitialized"; so does `new IteratorIterator($statement, 'PDOStatement')` (it asks the C
 * class for its iterator); get_class() names the generated class; a final class cannot be
 * subclassed at all.
 *
 * @internal
 */
final class StatementClass
{
    private const GENERATED_NAMESPACE = 'Spindle\\Database\\Pdo\\Generated';
    private const INNER = 'spindleStatement';

    /** @var array<class-string<\PDOStatement>, class-string<\PDOStatement>> user class => generated subclass */
    private static array $adapters = [];

    private function __construct()
    {
    }

    /**
     * Validates an ATTR_STATEMENT_CLASS value as PDO does: [class, constructor args?], the class
     * derived from PDOStatement and without a public constructor.
     *
     * @return array{class-string<\PDOStatement>, array<mixed>|null}
     */
    public static function fromAttribute(mixed $value): array
    {
        if (!\is_array($value)) {
            throw new \TypeError(sprintf('PDO::ATTR_STATEMENT_CLASS value must be of type array, %s given', get_debug_type($value)));
        }
        if (!\array_key_exists(0, $value)) {
            throw new \ValueError('PDO::ATTR_STATEMENT_CLASS value must be an array with the format array(classname, constructor_args)');
        }
        $class = $value[0];
        if (!\is_string($class) || !class_exists($class)) {
            throw new \TypeError('PDO::ATTR_STATEMENT_CLASS class must be a valid class');
        }
        if (!is_a($class, \PDOStatement::class, true)) {
            throw new \TypeError('PDO::ATTR_STATEMENT_CLASS class must be derived from PDOStatement');
        }
        $reflection = new \ReflectionClass($class);
        $constructor = $reflection->getConstructor();
        if ($constructor !== null && $constructor->isPublic()) {
            throw new \TypeError('User-supplied statement class cannot have a public constructor');
        }
        $ctorArgs = null;
        if (\array_key_exists(1, $value)) {
            if (!\is_array($value[1])) {
                throw new \TypeError(sprintf('PDO::ATTR_STATEMENT_CLASS constructor_args must be of type ?array, %s given', get_debug_type($value)));
            }
            $ctorArgs = $value[1];
        }

        return [$reflection->getName(), $ctorArgs];
    }

    /**
     * An object of the class, its constructor not run yet.
     *
     * @param class-string<\PDOStatement> $class
     * @param array<mixed>|null $ctorArgs
     */
    public static function instantiate(string $class, ?array $ctorArgs): \PDOStatement
    {
        if ($class === Statement::class && $ctorArgs === null) {
            // The default class, which has no constructor: no reflection on every prepare().
            return new Statement();
        }
        $reflection = new \ReflectionClass($class);
        if ($ctorArgs !== null && $reflection->getConstructor() === null) {
            throw new \Error('User-supplied statement does not accept constructor arguments');
        }
        if (!is_a($class, Statement::class, true)) {
            if ($reflection->isAbstract()) {
                throw new \Error(sprintf('Cannot instantiate abstract class %s', $reflection->getName()));
            }
            $reflection = new \ReflectionClass(self::adapter($class));
        }

        return $reflection->newInstanceWithoutConstructor();
    }

    /**
     * Gives the statement its queryString and engine, then runs its constructor (PHP's
     * pdo_stmt_construct()).
     *
     * @param array<mixed>|null $ctorArgs
     */
    public static function construct(\PDOStatement $statement, StatementCore $core, ?array $ctorArgs): void
    {
        $statement->queryString = $core->queryString;
        if ($statement::class === Statement::class && $ctorArgs === null) {
            self::attach($statement, $core);

            return;
        }
        if ($statement instanceof Statement) {
            self::attach($statement, $core);
        } else {
            $inner = (new \ReflectionClass(Statement::class))->newInstanceWithoutConstructor();
            $inner->queryString = $core->queryString;
            self::attach($inner, $core);
            (new \ReflectionProperty($statement, self::INNER))->setValue($statement, $inner);
        }
        (new \ReflectionObject($statement))->getConstructor()?->invokeArgs($statement, array_values($ctorArgs ?? []));
    }

    private static function attach(Statement $statement, StatementCore $core): void
    {
        // The setter is bound to Statement's scope once per connection, not on every prepare().
        ($core->handle->attachCore ??= self::coreSetter())($statement, $core);
    }

    /** @return \Closure(Statement, StatementCore): void */
    private static function coreSetter(): \Closure
    {
        $setter = \Closure::bind(static function (Statement $statement, StatementCore $core): void {
            $statement->core = $core;
        }, null, Statement::class);
        \assert($setter !== null);

        return $setter;
    }

    /**
     * The generated subclass of a class that extends \PDOStatement directly.
     *
     * @param class-string<\PDOStatement> $class
     *
     * @return class-string<\PDOStatement>
     */
    private static function adapter(string $class): string
    {
        if (isset(self::$adapters[$class])) {
            return self::$adapters[$class];
        }
        $reflection = new \ReflectionClass($class);
        if ($reflection->isFinal()) {
            throw new \TypeError(sprintf('Spindle\\Database\\Pdo cannot use the final statement class %s: it needs a subclass of it (make the class non-final, or extend %s)', $class, Statement::class));
        }
        // The same name under Spindle\Database\Pdo\Generated (App\Stmt: …\Generated\App\Stmt).
        $namespace = self::GENERATED_NAMESPACE;
        $short = 'Anonymous' . md5($class);
        if (!$reflection->isAnonymous()) {
            $short = $reflection->getShortName();
            if ($reflection->getNamespaceName() !== '') {
                $namespace .= '\\' . $reflection->getNamespaceName();
            }
        }
        $generated = $namespace . '\\' . $short;
        if (!class_exists($generated, false)) {
            eval(self::source($reflection, $namespace, $short));
        }
        /** @var class-string<\PDOStatement> $generated */
        return self::$adapters[$class] = $generated;
    }

    /** @param \ReflectionClass<\PDOStatement> $class */
    private static function source(\ReflectionClass $class, string $namespace, string $short): string
    {
        $methods = '';
        foreach ((new \ReflectionClass(\PDOStatement::class))->getMethods(\ReflectionMethod::IS_PUBLIC) as $method) {
            $name = $method->getName();
            if ($method->isStatic() || $name === '__construct' || $class->getMethod($name)->getDeclaringClass()->getName() !== \PDOStatement::class) {
                continue;   // the class's own method (or none to forward)
            }
            $methods .= self::forwarder(new \ReflectionMethod(Statement::class, $name));
        }
        if (!$class->hasMethod('__debugInfo')) {
            $methods .= "    public function __debugInfo(): array\n    {\n        \$properties = (array) \$this;\n"
                . "        unset(\$properties[\"\\0\" . self::class . \"\\0" . self::INNER . "\"]);\n\n        return \$properties;\n    }\n";
        }

        return sprintf(
            "namespace %s;\n\n/** Generated by Spindle for %s (PDO::ATTR_STATEMENT_CLASS). */\nclass %s extends \\%s\n{\n    private ?\\%s \$%s = null;\n\n%s\n    private function %s(): \\%s\n    {\n        return \$this->%s ?? throw new \\Error('PDO object is uninitialized');\n    }\n}\n",
            $namespace,
            $class->getName(),
            $short,
            $class->getName(),
            Statement::class,
            self::INNER,
            $methods,
            self::INNER,
            Statement::class,
            self::INNER,
        );
    }

    /** A method with Spindle Statement's signature that calls it on the inner statement. */
    private static function forwarder(\ReflectionMethod $method): string
    {
        $parameters = [];
        $arguments = [];
        $byReference = false;
        foreach ($method->getParameters() as $parameter) {
            $text = ($parameter->hasType() ? self::type($parameter->getType()) . ' ' : '')
                . ($parameter->isPassedByReference() ? '&' : '')
                . ($parameter->isVariadic() ? '...' : '')
                . '$' . $parameter->getName();
            if ($parameter->isDefaultValueAvailable()) {
                $constant = $parameter->getDefaultValueConstantName();
                $text .= ' = ' . ($constant !== null ? '\\' . ltrim($constant, '\\') : var_export($parameter->getDefaultValue(), true));
            }
            $parameters[] = $text;
            $arguments[] = ($parameter->isVariadic() ? '...' : '') . '$' . $parameter->getName();
            $byReference = $byReference || $parameter->isPassedByReference();
        }
        // Arguments as given (func_get_args()), so that the statement counts them as PDO does;
        // by reference ones one by one.
        $call = $byReference ? implode(', ', $arguments) : '...\func_get_args()';
        $return = $method->hasReturnType() ? ': ' . self::type($method->getReturnType()) : '';
        $body = $method->hasReturnType() && (string) $method->getReturnType() === 'void' ? '' : 'return ';

        return sprintf(
            "    public function %s(%s)%s\n    {\n        %s\$this->%s()->%s(%s);\n    }\n\n",
            $method->getName(),
            implode(', ', $parameters),
            $return,
            $body,
            self::INNER,
            $method->getName(),
            $call,
        );
    }

    private static function type(?\ReflectionType $type): string
    {
        if ($type instanceof \ReflectionNamedType) {
            $name = $type->getName();
            $text = $type->isBuiltin() || \in_array($name, ['self', 'static'], true) ? $name : '\\' . $name;

            return $type->allowsNull() && $name !== 'mixed' && $name !== 'null' ? '?' . $text : $text;
        }
        if ($type instanceof \ReflectionUnionType) {
            return implode('|', array_map(static fn (\ReflectionType $t): string => self::type($t), $type->getTypes()));
        }

        return (string) $type;
    }
}
