<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The Laravel blog of examples/blog, served by `bin/spindle serve examples/blog`: every route,
 * on a freshly seeded SQLite file of its own (DB_DATABASE points to a temporary file), and once
 * on the private MariaDB (tables under a prefix of their own) for /sleep.
 */
final class BlogTest extends E2ETestCase
{
    private const BLOG = __DIR__ . '/../../examples/blog';
    private const MYSQL_PREFIX = 'blogtest_';

    private static ?ServerProcess $server = null;
    private static string $database = '';
    /** @var array<string, string> */
    private static array $blogEnv = [];

    public static function setUpBeforeClass(): void
    {
        if (!\is_file(self::BLOG . '/vendor/autoload.php')) {
            self::fail('examples/blog is not installed: run scripts/test (or `composer install` in examples/blog).');
        }
        if (!\is_file('/usr/share/php/Illuminate/autoload.php')) {
            self::fail('Laravel is missing: run scripts/test (it installs Debian\'s php-laravel-framework).');
        }
        $database = \tempnam(\sys_get_temp_dir(), 'spindle-blog-');
        self::assertIsString($database);
        self::$database = $database;
        self::$blogEnv = [
            'APP_ENV' => 'production',
            'APP_DEBUG' => 'false',
            'APP_KEY' => 'base64:' . \base64_encode(\random_bytes(32)),
            'LOG_CHANNEL' => 'stderr',
            'SESSION_DRIVER' => 'cookie',
            'CACHE_DRIVER' => 'array',
            'DB_CONNECTION' => 'sqlite',
            'DB_DATABASE' => $database,
            'DB_PREFIX' => '',
            // Caches a `php artisan config:cache` in the checkout may have left are not read.
            'APP_CONFIG_CACHE' => $database . '-config.php',
            'APP_ROUTES_CACHE' => $database . '-routes.php',
        ];
        self::artisan(self::$blogEnv, 'blog:seed');
        self::$server = self::startBlog(self::$blogEnv);
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

    public function testHomePageLinksEveryRoute(): void
    {
        $response = self::fetch('/');
        self::assertSame(200, $response['status']);
        self::assertStringStartsWith('text/html', $response['headers']['content-type'][0] ?? '');
        foreach (['/posts', '/posts-cached', '/hello', '/users/5', '/batch', '/stats', '/sleep'] as $path) {
            self::assertStringContainsString('href="' . $path . '"', $response['body']);
        }
        // A page of the "web" group: the session and CSRF cookies come with it.
        $cookies = \implode("\n", $response['headers']['set-cookie'] ?? []);
        self::assertStringContainsString('XSRF-TOKEN=', $cookies);
        self::assertStringContainsString('spindle_blog_session=', $cookies);
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
        $user = self::json('/users/5');
        $expected = self::sqlite()->query('SELECT name, email FROM users WHERE id = 5')->fetch(\PDO::FETCH_ASSOC);
        self::assertIsArray($expected);
        self::assertSame(5, $user['id']);
        self::assertSame($expected['name'], $user['name']);
        self::assertSame('user5@example.com', $user['email']);
        self::assertArrayNotHasKey('password', $user);

        self::assertSame(404, self::fetch('/users/1001')['status']);
    }

    public function testBatchRunsOneHundredQueries(): void
    {
        $summary = self::json('/batch');
        self::assertSame(100, $summary['queries']);
        self::assertSame(1000, $summary['users_total']);
        self::assertSame(99, $summary['users_found']);
        self::assertGreaterThan(99 * 5, $summary['name_length_sum']);
    }

    public function testPostsCachedShowsTheSamePageFromTheSharedCache(): void
    {
        $plain = self::fetch('/posts');
        foreach (['/posts-cached', '/posts-cached', '/posts-cached/file', '/posts-cached/file'] as $path) {
            $cached = self::fetch($path);
            self::assertSame(200, $cached['status'], $path);
            self::assertSame($plain['body'], $cached['body'], $path . ' (the second time from the cache)');
        }
        self::assertSame(404, self::fetch('/posts-cached/nonsense')['status']);
    }

    public function testSavingAPostForgetsTheCachedList(): void
    {
        $original = (string) self::sqlite()->query('SELECT title FROM posts WHERE id = 10000')->fetchColumn();
        $cached = self::fetch('/posts-cached/file');
        self::assertStringContainsString('<h2>' . \htmlspecialchars($original) . '</h2>', $cached['body']);
        try {
            // The file store is the server's and the command's: the command's save forgets it there.
            self::artisan(self::$blogEnv, 'blog:retitle', '10000', 'Retitled & saved by the test');
            $again = self::fetch('/posts-cached/file');
            self::assertStringContainsString('<h2>Retitled &amp; saved by the test</h2>', $again['body'], 'the list was rendered anew');
            self::assertSame(self::fetch('/posts')['body'], $again['body']);
        } finally {
            self::artisan(self::$blogEnv, 'blog:retitle', '10000', $original);
        }
        self::assertSame(self::fetch('/posts')['body'], self::fetch('/posts-cached/file')['body']);
    }

    public function testStatsComeFromFourQueriesAtOnce(): void
    {
        $stats = self::json('/stats');
        $mostLinked = self::sqlite()->query('SELECT link_post_id, COUNT(*) AS c FROM post_posts GROUP BY link_post_id ORDER BY c DESC, link_post_id LIMIT 1')->fetch(\PDO::FETCH_NUM);
        self::assertIsArray($mostLinked);
        self::assertSame(['users' => 1000, 'posts' => 10000, 'links' => 33864], \array_intersect_key($stats, ['users' => 0, 'posts' => 0, 'links' => 0]));
        self::assertSame(['post_id' => (int) $mostLinked[0], 'links' => (int) $mostLinked[1]], \array_map('intval', $stats['most_linked']));
    }

    public function testPostsListsTheTwentyNewestWithAuthorsAndLinks(): void
    {
        $response = self::fetch('/posts');
        self::assertSame(200, $response['status']);
        $html = $response['body'];
        self::assertStringContainsString('<title>Latest posts · Spindle blog</title>', $html, 'the layout');
        self::assertSame(1, \preg_match_all('#<footer#', $html), 'the layout');

        \preg_match_all('#<article id="post-(\d+)">.*?<span class="author">([^<]+)</span>.*?Links to:(.*?)Linked from: (\d+)#s', $html, $articles, \PREG_SET_ORDER);
        self::assertCount(20, $articles);
        self::assertSame(\range(10000, 9981), \array_map(static fn (array $a): int => (int) $a[1], $articles));

        $authors = self::sqlite()->query(
            'SELECT posts.id, users.name FROM posts JOIN users ON users.id = posts.user_id WHERE posts.id > 9980',
        )->fetchAll(\PDO::FETCH_KEY_PAIR);
        $links = self::sqlite()->query(
            'SELECT post_id, COUNT(*) FROM post_posts WHERE post_id > 9980 GROUP BY post_id',
        )->fetchAll(\PDO::FETCH_KEY_PAIR);
        $linkedFrom = self::sqlite()->query(
            'SELECT link_post_id, COUNT(*) FROM post_posts WHERE link_post_id > 9980 GROUP BY link_post_id',
        )->fetchAll(\PDO::FETCH_KEY_PAIR);
        foreach ($articles as [, $id, $author, $linksTo, $linkedCount]) {
            self::assertSame($authors[(int) $id], \html_entity_decode($author), "author of post $id");
            self::assertSame((int) ($links[(int) $id] ?? 0), \substr_count($linksTo, '<a href="#post-'), "links of post $id");
            self::assertSame((int) ($linkedFrom[(int) $id] ?? 0), (int) $linkedCount, "posts linking to post $id");
        }
    }

    public function testSleepExplainsThatItNeedsMysql(): void
    {
        $response = self::fetch('/sleep');
        self::assertSame(503, $response['status']);
        $error = \json_decode($response['body'], true, 512, \JSON_THROW_ON_ERROR);
        self::assertIsArray($error);
        self::assertStringContainsString('needs MySQL', $error['error']);
        self::assertStringContainsString('DB_CONNECTION=mysql', $error['error']);
    }

    /** The blog keeps no state across requests that Spindle does not reset: --check-state finds nothing on any route. */
    public function testCheckStateFindsNothingToReport(): void
    {
        $server = self::startBlog(self::$blogEnv, ['--workers=1', '--check-state']);
        foreach (['/', '/hello', '/users/5', '/posts', '/posts?page=2', '/posts-cached', '/posts-cached', '/batch', '/users/7', '/posts', '/hello'] as $path) {
            $result = self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', $server->url($path)]);
            self::assertSame('200', $result['out'], $path . ': ' . $server->stderr());
        }
        self::assertSame(0, $server->stop(30.0), $server->stderr());

        self::assertStringContainsString('Checking for state the app keeps across requests', $server->stderr());
        self::assertStringNotContainsString('State kept across requests', $server->stderr());
    }

    public function testSeedingGivesTheSameRowsEveryTime(): void
    {
        $counts = [];
        foreach (['users', 'posts', 'post_posts'] as $table) {
            $counts[$table] = (int) self::sqlite()->query("SELECT COUNT(*) FROM $table")->fetchColumn();
        }
        self::assertSame(['users' => 1000, 'posts' => 10000, 'post_posts' => 33864], $counts);

        $again = \tempnam(\sys_get_temp_dir(), 'spindle-blog-');
        self::assertIsString($again);
        try {
            self::artisan(['DB_DATABASE' => $again] + self::$blogEnv, 'blog:seed');
            self::assertSame(self::fingerprint(self::sqlite()), self::fingerprint(self::sqlite($again)));
        } finally {
            @\unlink($again);
        }
    }

    public function testOnMysqlSleepWaitsInTheDatabaseAndTheDataIsTheSame(): void
    {
        $mysql = self::mysqlEnv();
        $env = [
            'DB_CONNECTION' => 'mysql',
            'DB_HOST' => $mysql['MYSQL_HOST'],
            'DB_PORT' => $mysql['MYSQL_PORT'],
            'DB_DATABASE' => $mysql['MYSQL_DATABASE'],
            'DB_USERNAME' => $mysql['MYSQL_USER'],
            'DB_PASSWORD' => $mysql['MYSQL_PASSWORD'],
            'DB_PREFIX' => self::MYSQL_PREFIX,
        ] + self::$blogEnv;
        $server = null;
        try {
            self::artisan($env, 'blog:seed');
            $server = self::startBlog($env);

            $result = self::curl(['-s', '-i', $server->url('/sleep')]);
            $response = self::parseCurlResponse($result['out']);
            self::assertSame(200, $response['status'], $response['body']);
            $body = \json_decode($response['body'], true, 512, \JSON_THROW_ON_ERROR);
            self::assertIsArray($body);
            self::assertGreaterThanOrEqual(0.99, $body['slept'], 'SELECT SLEEP(1) ran');

            // Three at once, each on a connection of its own (Spindle\concurrently()): one after
            // another they would take 3 s.
            $three = \json_decode(self::curl(['-s', $server->url('/sleep?tasks=3')])['out'], true);
            self::assertIsArray($three);
            self::assertSame(3, $three['tasks']);
            self::assertGreaterThanOrEqual(0.99, $three['slept']);
            self::assertLessThan(2.5, $three['slept'], 'the three waits overlapped');
            self::assertSame(
                \json_decode(self::fetch('/stats')['body'], true)['most_linked'] ?? null,
                \json_decode(self::curl(['-s', $server->url('/stats')])['out'], true)['most_linked'] ?? false,
                '/stats on SQLite and MySQL',
            );

            self::assertSame(
                self::parseCurlResponse(self::curl(['-s', '-i', self::$server?->url('/users/5') ?? ''])['out'])['body'],
                self::parseCurlResponse(self::curl(['-s', '-i', $server->url('/users/5')])['out'])['body'],
                'the same user 5 on SQLite and MySQL',
            );
            $posts = self::parseCurlResponse(self::curl(['-s', '-i', $server->url('/posts')])['out']);
            self::assertSame(200, $posts['status']);
            self::assertSame(20, \preg_match_all('#<article id="post-\d+">#', $posts['body']));
        } finally {
            $server?->stop();
            $pdo = new \PDO(
                \sprintf('mysql:host=%s;port=%s;dbname=%s', $mysql['MYSQL_HOST'], $mysql['MYSQL_PORT'], $mysql['MYSQL_DATABASE']),
                $mysql['MYSQL_USER'],
                $mysql['MYSQL_PASSWORD'],
            );
            $pdo->exec('SET FOREIGN_KEY_CHECKS = 0');
            foreach (['post_posts', 'posts', 'password_resets', 'users', 'migrations'] as $table) {
                $pdo->exec('DROP TABLE IF EXISTS `' . self::MYSQL_PREFIX . $table . '`');
            }
        }
    }

    /** @return array{status: int, protocol: string, headers: array<string, list<string>>, body: string} */
    private static function fetch(string $path): array
    {
        self::assertNotNull(self::$server);
        $result = self::curl(['-s', '-i', self::$server->url($path)]);
        self::assertSame(0, $result['code'], $result['err']);

        return self::parseCurlResponse($result['out']);
    }

    /** @return array<string, mixed> */
    private static function json(string $path): array
    {
        $response = self::fetch($path);
        self::assertSame(200, $response['status'], $response['body']);
        self::assertSame('application/json', $response['headers']['content-type'][0] ?? '');
        $data = \json_decode($response['body'], true, 512, \JSON_THROW_ON_ERROR);
        self::assertIsArray($data);

        return $data;
    }

    private static function sqlite(?string $file = null): \PDO
    {
        $pdo = new \PDO('sqlite:' . ($file ?? self::$database));
        $pdo->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_EXCEPTION);

        return $pdo;
    }

    private static function fingerprint(\PDO $pdo): string
    {
        $hash = \hash_init('sha256');
        foreach ([
            'SELECT id, name, email, created_at FROM users ORDER BY id',
            'SELECT id, user_id, title, body, created_at FROM posts ORDER BY id',
            'SELECT post_id, link_post_id FROM post_posts ORDER BY id',
        ] as $query) {
            foreach ($pdo->query($query)->fetchAll(\PDO::FETCH_NUM) as $row) {
                \hash_update($hash, \implode("\0", $row) . "\n");
            }
        }

        return \hash_final($hash);
    }

    /**
     * Runs `php artisan ...` in examples/blog with $env on top of this process's environment.
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

    /**
     * Starts Spindle on the blog with $env in its environment. The variables are set only while
     * the server starts, so no other test sees them.
     *
     * @param array<string, string> $env
     */
    /** @param list<string> $options */
    private static function startBlog(array $env, array $options = ['--workers=1']): ServerProcess
    {
        $saved = [];
        foreach ($env as $name => $value) {
            $saved[$name] = \getenv($name);
            \putenv($name . '=' . $value);
        }
        try {
            return ServerProcess::start(self::BLOG, $options);
        } finally {
            foreach ($saved as $name => $value) {
                \putenv($value === false ? $name : $name . '=' . $value);
            }
        }
    }

    /** @return array<string, string> where the private MariaDB of scripts/mariadb listens */
    private static function mysqlEnv(): array
    {
        $dir = \getenv('SPINDLE_MYSQL_DIR');
        $file = ($dir === false || $dir === '' ? '/tmp/spindle-mariadb' : $dir) . '/env';
        $lines = \is_file($file) ? \file($file, \FILE_IGNORE_NEW_LINES | \FILE_SKIP_EMPTY_LINES) : false;
        if ($lines === false) {
            self::fail("No MariaDB for the blog's MySQL test: $file is missing. Run scripts/mariadb first.");
        }
        $env = [];
        foreach ($lines as $line) {
            if (\preg_match('/^(?:export\s+)?([A-Z_]+)=(.*)$/', $line, $m) === 1) {
                $env[$m[1]] = $m[2];
            }
        }
        foreach (['MYSQL_HOST', 'MYSQL_PORT', 'MYSQL_USER', 'MYSQL_PASSWORD', 'MYSQL_DATABASE'] as $key) {
            if (!isset($env[$key])) {
                self::fail("$file lacks $key. Run scripts/mariadb again.");
            }
        }

        return $env;
    }
}
