<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The blog on Laravel 12 (examples/blog12, the laravel/laravel 12.x skeleton), served by
 * `bin/spindle serve examples/blog12` on a freshly seeded SQLite file of its own: the routes the
 * README demo and the benchmark use. BlogTest covers every route of the Laravel 8 blog.
 */
final class Blog12Test extends E2ETestCase
{
    private const BLOG = __DIR__ . '/../../examples/blog12';

    private static ?ServerProcess $server = null;
    private static string $database = '';

    public static function setUpBeforeClass(): void
    {
        if (!\is_file(self::BLOG . '/vendor/laravel/framework/src/Illuminate/Foundation/Application.php')) {
            self::fail('examples/blog12 is not installed: run scripts/test (or `scripts/composer-fixture examples/blog12 install`).');
        }
        $database = \tempnam(\sys_get_temp_dir(), 'spindle-blog12-');
        self::assertIsString($database);
        self::$database = $database;
        $env = [
            'APP_ENV' => 'production',
            'APP_DEBUG' => 'false',
            'APP_KEY' => 'base64:' . \base64_encode(\random_bytes(32)),
            'LOG_CHANNEL' => 'stderr',
            'SESSION_DRIVER' => 'cookie',
            'CACHE_STORE' => 'array',
            'DB_CONNECTION' => 'sqlite',
            'DB_DATABASE' => $database,
            'DB_PREFIX' => '',
            // Caches a `php artisan optimize` in the checkout may have left are not read.
            'APP_CONFIG_CACHE' => $database . '-config.php',
            'APP_ROUTES_CACHE' => $database . '-routes.php',
        ];
        self::artisan($env, 'blog:seed');

        // The variables are set only while the server starts, so no other test sees them.
        $saved = [];
        foreach ($env as $name => $value) {
            $saved[$name] = \getenv($name);
            \putenv($name . '=' . $value);
        }
        try {
            self::$server = ServerProcess::start(self::BLOG, ['--workers=1']);
        } finally {
            foreach ($saved as $name => $value) {
                \putenv($value === false ? $name : $name . '=' . $value);
            }
        }
    }

    public static function tearDownAfterClass(): void
    {
        self::$server?->stop();
        self::$server = null;
        if (self::$database !== '') {
            @\unlink(self::$database);
        }
        parent::tearDownAfterClass();
    }

    public function testPostsListsTheTwentyNewestWithAuthors(): void
    {
        $response = self::fetch('/posts');
        self::assertSame(200, $response['status'], $response['body']);
        $html = $response['body'];
        self::assertStringContainsString('<title>Latest posts · Spindle blog</title>', $html, 'the layout');

        \preg_match_all('#<article id="post-(\d+)">.*?<span class="author">([^<]+)</span>#s', $html, $articles, \PREG_SET_ORDER);
        self::assertSame(\range(10000, 9981), \array_map(static fn (array $a): int => (int) $a[1], $articles));
        $authors = self::sqlite()->query(
            'SELECT posts.id, users.name FROM posts JOIN users ON users.id = posts.user_id WHERE posts.id > 9980',
        )->fetchAll(\PDO::FETCH_KEY_PAIR);
        foreach ($articles as [, $id, $author]) {
            self::assertSame($authors[(int) $id], \html_entity_decode($author), "author of post $id");
        }
        // A page of the "web" group: the session cookie comes with it.
        self::assertStringContainsString('spindle_blog_session=', \implode("\n", $response['headers']['set-cookie'] ?? []));
    }

    public function testHello(): void
    {
        $response = self::fetch('/hello');
        self::assertSame(200, $response['status']);
        self::assertSame('Hello World', $response['body']);
        self::assertStringStartsWith('text/plain', $response['headers']['content-type'][0] ?? '');
    }

    public function testUserAsJson(): void
    {
        $response = self::fetch('/users/5');
        self::assertSame(200, $response['status'], $response['body']);
        self::assertSame('application/json', $response['headers']['content-type'][0] ?? '');
        $user = \json_decode($response['body'], true, 512, \JSON_THROW_ON_ERROR);
        self::assertIsArray($user);
        $name = self::sqlite()->query('SELECT name FROM users WHERE id = 5')->fetchColumn();
        self::assertSame(5, $user['id']);
        self::assertSame($name, $user['name']);
        self::assertSame('user5@example.com', $user['email']);
        self::assertArrayNotHasKey('password', $user);
        self::assertSame(1000, (int) self::sqlite()->query('SELECT COUNT(*) FROM users')->fetchColumn());
        self::assertSame(10000, (int) self::sqlite()->query('SELECT COUNT(*) FROM posts')->fetchColumn());
    }

    /** @return array{status: int, protocol: string, headers: array<string, list<string>>, body: string} */
    private static function fetch(string $path): array
    {
        self::assertNotNull(self::$server);
        $result = self::curl(['-s', '-i', self::$server->url($path)]);
        self::assertSame(0, $result['code'], $result['err']);

        return self::parseCurlResponse($result['out']);
    }

    private static function sqlite(): \PDO
    {
        $pdo = new \PDO('sqlite:' . self::$database);
        $pdo->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_EXCEPTION);

        return $pdo;
    }

    /**
     * Runs `php artisan ...` in examples/blog12 with $env on top of this process's environment.
     *
     * @param array<string, string> $env
     */
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
}
