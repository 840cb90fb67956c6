<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use Spindle\Tests\Unit\Database\FakeConnection;
use PHPUnit\Framework\TestCase;
use Spindle\Database\Pdo;

/** A Spindle\Database\Pdo over a FakeConnection, and a way to catch the warnings it raises. */
abstract class PdoTestCase extends TestCase
{
    protected FakeConnection $connection;

    /** @param array<int|string, mixed> $options */
    protected function pdo(array $options = [], string $dsn = 'mysql:host=127.0.0.1;charset=utf8mb4'): Pdo
    {
        $this->connection = new FakeConnection();

        return Pdo::fromConnection($this->connection, $options, $dsn);
    }

    /**
     * Runs $action and returns its result and the warnings it raised.
     *
     * @template T
     *
     * @param callable(): T $action
     *
     * @return array{T, list<string>}
     */
    protected static function withWarnings(callable $action): array
    {
        $warnings = [];
        set_error_handler(static function (int $level, string $message) use (&$warnings): bool {
            if ($level !== E_USER_WARNING && $level !== E_WARNING) {
                return false;
            }
            $warnings[] = $message;

            return true;
        });
        try {
            $result = $action();
        } finally {
            restore_error_handler();
        }

        return [$result, $warnings];
    }

    /**
     * The PDOException $action throws.
     *
     * @param callable(): mixed $action
     */
    protected static function pdoException(callable $action): \PDOException
    {
        try {
            $action();
        } catch (\PDOException $e) {
            return $e;
        }
        self::fail('no PDOException was thrown');
    }
}
