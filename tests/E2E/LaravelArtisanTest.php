<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Database\Pdo;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\PublicDirectory;

/**
 * `php artisan migrate` and `php artisan spindle:serve|status|stop` on the fixture app, with
 * its `mysql` connection on Spindle's driver: Eloquent, transactions and migrations over it.
 */
class LaravelArtisanTest extends E2ETestCase
{
    /** The Laravel app this class serves; a subclass runs the same tests on another. */
    protected static function app(): string
    {
        return LaravelFixture::path();
    }

    private ?string $pidFile = null;
    /** @var resource|null */
    private $server = null;

    protected function setUp(): void
    {
        LaravelFixture::useTestDatabase();
        self::dropTables();
    }

    protected function tearDown(): void
    {
        if (\is_resource($this->server)) {
            $status = \proc_get_status($this->server);
            if ($status['running']) {
                \posix_kill($status['pid'], \SIGTERM);
            }
            \proc_close($this->server);
        }
        if ($this->pidFile !== null) {
            @\unlink($this->pidFile);
        }
        self::dropTables();
        PublicDirectory::removeUploads(static::app() . '/public');
    }

    private static function dropTables(): void
    {
        $pdo = new Pdo(
            \sprintf('mysql:host=%s;port=%s;dbname=%s', \getenv('DB_HOST') ?: '127.0.0.1', \getenv('DB_PORT') ?: '33306', \getenv('DB_DATABASE') ?: 'spindle_test'),
            \getenv('DB_USERNAME') ?: 'spindle',
            \getenv('DB_PASSWORD') ?: 'spindle',
        );
        $pdo->exec('DROP TABLE IF EXISTS laravel_notes, laravel_migrations');
    }

    /**
     * @param list<string> $arguments
     *
     * @return array{int, string}
     */
    private static function artisan(array $arguments): array
    {
        $process = \proc_open([\PHP_BINARY, 'artisan', ...$arguments], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, static::app());
        self::assertIsResource($process);
        $output = (string) \stream_get_contents($pipes[1]);

        return [\proc_close($process), $output];
    }

    public function testMigrateThenServeStatusAndStopThroughArtisan(): void
    {
        [$code, $output] = self::artisan(['migrate', '--force']);
        self::assertSame(0, $code, $output);
        // Laravel 8 says "Migrated:  <name>", Laravel 9 and later "<name> .... DONE".
        self::assertMatchesRegularExpression('/(Migrated: +2024_01_01_000000_create_laravel_notes_table|2024_01_01_000000_create_laravel_notes_table \\.* .*DONE)/', $output);

        $this->pidFile = \sys_get_temp_dir() . '/spindle-laravel-artisan-' . \getmypid() . '.pid';
        $server = \proc_open(
            [\PHP_BINARY, 'artisan', 'spindle:serve', '--port=0', '--workers=1', '--pid-file=' . $this->pidFile],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']],
            $pipes,
            static::app(),
        );
        self::assertIsResource($server);
        $this->server = $server;
        $port = self::readPort($pipes[1]);
        $url = 'http://127.0.0.1:' . $port;

        $out = self::curl(['-s', $url . '/notes/create/first'])['out'];
        $created = \json_decode($out, true);
        self::assertIsArray($created, $out);
        self::assertSame('first', $created['title']);
        self::assertSame('written by Spindle\Database\Pdo', $created['body']);
        $read = \json_decode(self::curl(['-s', $url . '/notes/' . $created['id']])['out'], true);
        self::assertIsArray($read);
        self::assertSame('first', $read['title']);

        // As under `spindle serve <directory>`: public/ is served and the workers run in it.
        PublicDirectory::assertServesItsCss($port, static::app() . '/public');
        PublicDirectory::assertARelativeUploadIsServedBack($port, static::app() . '/public');

        // An exception inside DB::transaction() rolls the insert back.
        self::assertSame('500', self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', $url . '/notes/create/rollback'])['out']);
        self::assertSame('1', self::curl(['-s', $url . '/notes/count'])['out']);

        [$code, $output] = self::artisan(['spindle:status', '--json', '--pid-file=' . $this->pidFile]);
        self::assertSame(0, $code, $output);
        $status = \json_decode($output, true);
        self::assertIsArray($status, $output);
        self::assertArrayHasKey("workers", $status, $output);

        [$code, $output] = self::artisan(['spindle:stop', '--pid-file=' . $this->pidFile]);
        self::assertSame(0, $code, $output);
        self::assertTrue(self::eventually(static fn (): bool => !\proc_get_status($server)['running'], 10.0), 'the server stopped');

        [$code, $output] = self::artisan(['migrate:rollback', '--force']);
        self::assertSame(0, $code, $output);
        self::assertMatchesRegularExpression('/(Rolled back: +2024_01_01_000000_create_laravel_notes_table|2024_01_01_000000_create_laravel_notes_table \\.* .*DONE)/', $output);
    }

    /** @param resource $stdout */
    private static function readPort($stdout): int
    {
        $seen = '';
        $deadline = \microtime(true) + 15.0;
        while (\preg_match('#Spindle listening on http://127\.0\.0\.1:(\d+)\n#', $seen, $m) !== 1) {
            $left = $deadline - \microtime(true);
            self::assertGreaterThan(0, $left, 'spindle:serve did not announce readiness: ' . $seen);
            $read = [$stdout];
            $write = $except = null;
            if (@\stream_select($read, $write, $except, 0, (int) \min(1e6, $left * 1e6)) > 0) {
                $chunk = \fread($stdout, 8192);
                self::assertIsString($chunk);
                self::assertFalse($chunk === '' && \feof($stdout), 'spindle:serve ended: ' . $seen);
                $seen .= $chunk;
            }
        }

        return (int) $m[1];
    }
}
