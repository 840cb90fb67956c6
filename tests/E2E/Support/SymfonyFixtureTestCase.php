<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

/**
 * Base of the tests that serve tests/fixtures/symfony-app (Symfony 5.4 from Debian's packages,
 * installed by scripts/test), or another fixture where a subclass's app() says so (the
 * Symfony74…Test classes: tests/fixtures/symfony74-app): the fixture's path, and its users table
 * in the private MariaDB.
 */
abstract class SymfonyFixtureTestCase extends E2ETestCase
{
    protected const USERS = [
        1 => ['name' => 'Ada Lovelace', 'email' => 'ada@example.com'],
        2 => ['name' => 'Grace Hopper', 'email' => 'grace@example.com'],
    ];

    private static ?\PDO $database = null;

    public static function setUpBeforeClass(): void
    {
        parent::setUpBeforeClass();
        $app = static::app();
        if (!\is_file($app . '/vendor/autoload_runtime.php')) {
            self::fail("The Symfony fixture is not installed: run scripts/test, or `composer install` in $app");
        }
        // The fixture runs with APP_DEBUG=0, so its compiled container is not rebuilt when the
        // fixture's code changes: start from a fresh cache.
        self::removeDirectory($app . '/var/cache');
        // The fixture (through Dotenv, as any Symfony app) takes MYSQL_* from the environment first.
        $env = self::mysqlEnv();
        // DATABASE_URL for DoctrineBundle's connection (the 7.4 fixture), as Symfony's recipe names it.
        $env['DATABASE_URL'] = \sprintf('mysql://%s:%s@%s:%s/%s?charset=utf8mb4', \rawurlencode($env['MYSQL_USER']), \rawurlencode($env['MYSQL_PASSWORD']), $env['MYSQL_HOST'], $env['MYSQL_PORT'], $env['MYSQL_DATABASE']);
        foreach ($env as $name => $value) {
            \putenv("{$name}={$value}");
        }
        $database = new \PDO(
            \sprintf('mysql:host=%s;port=%s;dbname=%s;charset=utf8mb4', $env['MYSQL_HOST'], $env['MYSQL_PORT'], $env['MYSQL_DATABASE']),
            $env['MYSQL_USER'],
            $env['MYSQL_PASSWORD'],
            [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION],
        );
        $database->exec('DROP TABLE IF EXISTS symfony_users');
        $database->exec('CREATE TABLE symfony_users (id INT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(100) NOT NULL)');
        $insert = $database->prepare('INSERT INTO symfony_users (id, name, email) VALUES (?, ?, ?)');
        foreach (self::USERS as $id => $user) {
            $insert->execute([$id, $user['name'], $user['email']]);
        }
        self::$database = $database;
    }

    public static function tearDownAfterClass(): void
    {
        parent::tearDownAfterClass();
        self::$database?->exec('DROP TABLE IF EXISTS symfony_users');
        self::$database = null;
    }

    protected static function app(): string
    {
        return \dirname(__DIR__, 2) . '/fixtures/symfony-app';
    }

    /** Where PHP's files handler keeps sessions (the fixture's handler_id is null). */
    protected static function sessionDirectory(): string
    {
        $path = (string) \ini_get('session.save_path');
        $path = \substr($path, (int) \strrpos(';' . $path, ';'));

        return $path === '' ? \sys_get_temp_dir() : \rtrim($path, '/');
    }

    protected static function removeDirectory(string $directory): void
    {
        if (!\is_dir($directory)) {
            return;
        }
        $entries = new \RecursiveIteratorIterator(
            new \RecursiveDirectoryIterator($directory, \FilesystemIterator::SKIP_DOTS),
            \RecursiveIteratorIterator::CHILD_FIRST,
        );
        foreach ($entries as $entry) {
            \assert($entry instanceof \SplFileInfo);
            $entry->isDir() && !$entry->isLink() ? \rmdir($entry->getPathname()) : \unlink($entry->getPathname());
        }
        \rmdir($directory);
    }

    /** @return array<string, string> */
    private static function mysqlEnv(): array
    {
        $dir = \getenv('SPINDLE_MYSQL_DIR');
        $file = ($dir === false || $dir === '' ? '/tmp/spindle-mariadb' : $dir) . '/env';
        $lines = \is_file($file) ? \file($file, \FILE_IGNORE_NEW_LINES | \FILE_SKIP_EMPTY_LINES) : false;
        if ($lines === false) {
            self::fail("No MariaDB for the Symfony fixture: $file is missing. Run scripts/mariadb first.");
        }
        $env = [];
        foreach ($lines as $line) {
            if (\preg_match('/^(?:export\s+)?(MYSQL_(?:HOST|PORT|USER|PASSWORD|DATABASE))=(.*)$/', $line, $m) === 1) {
                $env[$m[1]] = \trim($m[2], '\'"');
            }
        }

        return $env;
    }
}
