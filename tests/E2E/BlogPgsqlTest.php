<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\Integration\Pgsql\PgsqlTestCase;

/**
 * The Laravel blog of examples/blog on the private PostgreSQL of scripts/postgres
 * (DB_CONNECTION=pgsql), served by `bin/spindle serve examples/blog` with one worker: seeded by
 * artisan (native pdo_pgsql: artisan runs without Spindle's event loop), its pages
 * and JSON the same as native pdo_pgsql reads the data, and ten requests waiting on
 * `SELECT pg_sleep(1)` at once finishing together. With SPINDLE_PGSQL_DRIVER=native the worker
 * runs native pdo_pgsql instead.
 */
final class BlogPgsqlTest extends E2ETestCase
{
    private const BLOG = __DIR__ . '/../../examples/blog';
    private const DATABASE = 'spindle_blog';

    private static ?ServerProcess $server = null;
    /** @var array<string, string> */
    private static array $blogEnv = [];

    public static function setUpBeforeClass(): void
    {
        if (!\is_file(self::BLOG . '/vendor/autoload.php')) {
            self::fail('examples/blog is not installed: run scripts/test (or `composer install` in examples/blog).');
        }
        if (!\extension_loaded('pdo_pgsql')) {
            self::fail('The PostgreSQL blog test reads the data back through native pdo_pgsql: install php8.2-pgsql (scripts/test does).');
        }
        $pg = PgsqlTestCase::env();
        $config = \sys_get_temp_dir() . '/spindle-blog-pgsql-' . \getmypid();
        self::$blogEnv = [
            'APP_ENV' => 'production',
            'APP_DEBUG' => 'false',
            'APP_KEY' => 'base64:' . \base64_encode(\random_bytes(32)),
            'LOG_CHANNEL' => 'stderr',
            'SESSION_DRIVER' => 'cookie',
            'CACHE_DRIVER' => 'array',
            'DB_CONNECTION' => 'pgsql',
            'DB_HOST' => $pg['PGSQL_HOST'],
            'DB_PORT' => $pg['PGSQL_PORT'],
            'DB_DATABASE' => self::DATABASE,
            'DB_USERNAME' => $pg['PGSQL_USER'],
            'DB_PASSWORD' => $pg['PGSQL_PASSWORD'],
            'DB_PREFIX' => '',
            'APP_CONFIG_CACHE' => $config . '-config.php',
            'APP_ROUTES_CACHE' => $config . '-routes.php',
        ];
        self::artisan(self::$blogEnv, 'blog:seed', '--if-needed');
        self::$server = self::startBlog(self::$blogEnv);
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
        parent::tearDownAfterClass();
    }

    public function testSeededDataIsComplete(): void
    {
        $counts = [];
        foreach (['users', 'posts', 'post_posts'] as $table) {
            $counts[$table] = (int) self::native()->query("SELECT COUNT(*) FROM $table")->fetchColumn();
        }
        self::assertSame(['users' => 1000, 'posts' => 10000, 'post_posts' => 33864], $counts);
    }

    public function testPagesAndJsonMatchTheDatabase(): void
    {
        $server = self::$server;
        self::assertNotNull($server);
        $user = self::fetch($server, '/users/5');
        self::assertSame(200, $user['status'], $user['body'] . $server->stderr());
        $data = \json_decode($user['body'], true, 512, \JSON_THROW_ON_ERROR);
        self::assertIsArray($data);
        $expected = self::native()->query('SELECT id, name, email FROM users WHERE id = 5')->fetch(\PDO::FETCH_ASSOC);
        self::assertIsArray($expected);
        self::assertSame($expected['id'], $data['id'], 'an integer id, as pdo_pgsql gives it');
        self::assertSame($expected['name'], $data['name']);
        self::assertSame($expected['email'], $data['email']);
        self::assertSame(404, self::fetch($server, '/users/1001')['status']);

        $posts = self::fetch($server, '/posts');
        self::assertSame(200, $posts['status'], $posts['body']);
        \preg_match_all('#<article id="post-(\d+)">.*?<span class="author">([^<]+)</span>#s', $posts['body'], $articles, \PREG_SET_ORDER);
        self::assertCount(20, $articles);
        self::assertSame(\range(10000, 9981), \array_map(static fn (array $a): int => (int) $a[1], $articles));
        $authors = self::native()->query('SELECT posts.id, users.name FROM posts JOIN users ON users.id = posts.user_id WHERE posts.id > 9980')->fetchAll(\PDO::FETCH_KEY_PAIR);
        foreach ($articles as [, $id, $author]) {
            self::assertSame($authors[(int) $id], \html_entity_decode($author), "author of post $id");
        }

        $batch = self::fetch($server, '/batch');
        self::assertSame(200, $batch['status'], $batch['body']);
        $summary = \json_decode($batch['body'], true, 512, \JSON_THROW_ON_ERROR);
        self::assertIsArray($summary);
        self::assertSame(100, $summary['queries']);
        self::assertSame(1000, $summary['users_total']);
    }

    public function testTenSleepsRunTogetherInOneWorker(): void
    {
        $server = self::$server;
        self::assertNotNull($server);
        $started = \hrtime(true);
        $outputs = LaravelFixture::curlAll(\array_fill(0, 10, [$server->url('/sleep')]), 30.0);
        $elapsed = (\hrtime(true) - $started) / 1e9;
        foreach ($outputs as $output) {
            $data = \json_decode($output, true);
            self::assertIsArray($data, $output . "\n" . $server->stderr());
            self::assertGreaterThanOrEqual(0.99, $data['slept'], 'SELECT pg_sleep(1) ran');
        }
        // One after another they would take ten seconds: in one worker they overlap.
        self::assertLessThan(6.0, $elapsed, 'ten one-second waits in one worker');
    }

    public function testTheNativeDriverOptOut(): void
    {
        $server = self::startBlog(['SPINDLE_PGSQL_DRIVER' => 'native'] + self::$blogEnv);
        try {
            $response = self::fetch($server, '/users/5');
            self::assertSame(200, $response['status'], $response['body'] . $server->stderr());
            $outputs = LaravelFixture::curlAll(\array_fill(0, 2, [$server->url('/sleep')]), 30.0);
            foreach ($outputs as $output) {
                $data = \json_decode($output, true);
                self::assertIsArray($data, $output);
                self::assertGreaterThanOrEqual(0.99, $data['slept']);
            }
            // Native pdo_pgsql blocks the worker for each second, and the worker says so.
            self::assertTrue(self::eventually(static fn (): bool => \str_contains($server->stderr(), 'blocked the event loop'), 10.0), $server->stderr());
        } finally {
            $server->stop();
        }
    }

    /** @return array{status: int, protocol: string, headers: array<string, list<string>>, body: string} */
    private static function fetch(ServerProcess $server, string $path): array
    {
        $result = self::curl(['-s', '-i', $server->url($path)], 20.0);
        self::assertSame(0, $result['code'], $result['err']);

        return self::parseCurlResponse($result['out']);
    }

    private static function native(): \PDO
    {
        $env = self::$blogEnv;

        return new \PDO(\sprintf('pgsql:host=%s;port=%s;dbname=%s', $env['DB_HOST'], $env['DB_PORT'], $env['DB_DATABASE']), $env['DB_USERNAME'], $env['DB_PASSWORD'], [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
    }

    /** @param array<string, string> $env */
    private static function artisan(array $env, string ...$arguments): void
    {
        $process = \proc_open(
            [\PHP_BINARY, self::BLOG . '/artisan', ...$arguments, '--no-interaction'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]],
            $pipes,
            self::BLOG,
            $env + \getenv(),
        );
        self::assertIsResource($process);
        $output = (string) \stream_get_contents($pipes[1]);
        \fclose($pipes[1]);
        self::assertSame(0, \proc_close($process), 'artisan ' . \implode(' ', $arguments) . ":\n" . $output);
    }

    /** @param array<string, string> $env set only while the server starts */
    private static function startBlog(array $env): ServerProcess
    {
        $saved = [];
        foreach ($env as $name => $value) {
            $saved[$name] = \getenv($name);
            \putenv($name . '=' . $value);
        }
        try {
            return ServerProcess::start(self::BLOG, ['--workers=1']);
        } finally {
            foreach ($saved as $name => $value) {
                \putenv($value === false ? $name : $name . '=' . $value);
            }
        }
    }
}
