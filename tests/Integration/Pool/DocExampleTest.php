<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pool;

use Revolt\EventLoop;
use Spindle\Database\Pdo;
use Spindle\Database\Pool\ConnectionPool;
use Spindle\Tests\Integration\Mysql\MysqlTestCase;

/**
 * The connection-pool example of docs/database.md, run as printed against the private MariaDB:
 * only the ConnectionConfig's values are the test server's.
 */
final class DocExampleTest extends MysqlTestCase
{
    public function testThePoolExampleRunsAsPrinted(): void
    {
        $docs = (string) \file_get_contents(\dirname(__DIR__, 3) . '/docs/database.md');
        \preg_match_all('/```php\n(.*?)```/s', $docs, $m);
        $examples = \array_values(\array_filter($m[1], static fn (string $code): bool => \str_contains($code, 'new ConnectionPool(')));
        self::assertNotSame([], $examples, 'docs/database.md has the pool example');
        $code = $examples[0];

        $env = self::env();
        $printed = "new ConnectionConfig(host: '127.0.0.1', port: 3306, user: 'app', password: \$password, database: 'app')";
        self::assertStringContainsString($printed, $code, 'the example builds its ConnectionConfig');
        $code = \str_replace($printed, \sprintf(
            'new ConnectionConfig(host: %s, port: %d, user: %s, password: $password, database: %s)',
            \var_export($env['MYSQL_HOST'], true),
            (int) $env['MYSQL_PORT'],
            \var_export($env['MYSQL_USER'], true),
            \var_export($env['MYSQL_DATABASE'], true),
        ), $code);
        $code .= "\nreturn [\$pool, \$rows, \$pdo];\n";

        $result = null;
        EventLoop::queue(static function () use ($code, $env, &$result): void {
            $result = (static function (string $code, string $password): array {
                return eval($code);
            })($code, $env['MYSQL_PASSWORD']);
        });
        EventLoop::run();

        self::assertIsArray($result);
        [$pool, $rows, $pdo] = $result;
        self::assertInstanceOf(ConnectionPool::class, $pool);
        self::assertEquals([[1]], $rows);
        self::assertInstanceOf(Pdo::class, $pdo);
        $pool->close();
    }
}
