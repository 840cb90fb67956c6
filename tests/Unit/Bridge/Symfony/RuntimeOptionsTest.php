<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony;

use PHPUnit\Framework\TestCase;
use Spindle\Loop\EventLoopKind;
use Spindle\Bridge\Symfony\RuntimeOptions;

final class RuntimeOptionsTest extends TestCase
{
    public function testDefaults(): void
    {
        $options = RuntimeOptions::serverOptions(['project_dir' => __DIR__], [], cpus: 3);
        self::assertSame(__DIR__, $options->app);
        self::assertSame('127.0.0.1', $options->host);
        self::assertSame(8080, $options->port);
        self::assertSame(3, $options->workers);
        self::assertSame(100, $options->concurrency);
        self::assertSame(60.0, $options->requestTimeout);
        self::assertNull($options->staticDir, 'no public/ in the project');
        self::assertSame(__DIR__, $options->workingDirectory);
        self::assertFalse($options->debug);
    }

    public function testEnvironmentVariables(): void
    {
        $options = RuntimeOptions::serverOptions(['project_dir' => __DIR__], [
            'SPINDLE_HOST' => '0.0.0.0',
            'SPINDLE_PORT' => '0',
            'SPINDLE_WORKERS' => '2',
            'SPINDLE_CONCURRENCY' => '7',
            'SPINDLE_MAX_REQUESTS' => '1000',
            'SPINDLE_REQUEST_TIMEOUT' => '2.5',
            'SPINDLE_STATIC_DIR' => __DIR__,
            'SPINDLE_DEBUG' => 'true',
        ]);
        self::assertSame('0.0.0.0', $options->host);
        self::assertSame(0, $options->port);
        self::assertSame(2, $options->workers);
        self::assertSame(7, $options->concurrency);
        self::assertSame(1000, $options->maxRequests);
        self::assertSame(2.5, $options->requestTimeout);
        self::assertSame(__DIR__, $options->staticDir);
        self::assertTrue($options->debug);
    }

    public function testTheEventLoopAndTheConnectionCap(): void
    {
        $options = RuntimeOptions::serverOptions(['project_dir' => __DIR__], []);
        self::assertSame(EventLoopKind::Select, $options->eventLoop);
        self::assertSame(512, $options->maxConnections);
        $options = RuntimeOptions::serverOptions(['project_dir' => __DIR__], ['SPINDLE_EVENT_LOOP' => 'select', 'SPINDLE_MAX_CONNECTIONS' => '900']);
        self::assertSame(EventLoopKind::Select, $options->eventLoop);
        self::assertSame(900, $options->maxConnections);
        $this->expectExceptionMessage('The Spindle option event_loop (SPINDLE_EVENT_LOOP) must be auto, select or epoll, got "poll"');
        RuntimeOptions::serverOptions(['project_dir' => __DIR__], ['SPINDLE_EVENT_LOOP' => 'poll']);
    }

    /** As `spindle serve <directory>`: the workers run in public/, which is served, and a relative static_dir is the project's. */
    public function testThePublicDirectoryIsTheWorkingAndStaticDirectory(): void
    {
        $project = (string) \realpath(\sys_get_temp_dir()) . '/spindle-runtime-options-' . \bin2hex(\random_bytes(6));
        \mkdir($project . '/public/build', 0o777, true);
        try {
            $options = RuntimeOptions::serverOptions(['project_dir' => $project], []);
            self::assertSame($project . '/public', $options->workingDirectory);
            self::assertSame($project . '/public', $options->staticDir);
            self::assertSame($project . '/public/build', RuntimeOptions::serverOptions(['project_dir' => $project], ['SPINDLE_STATIC_DIR' => 'public/build'])->staticDir);
            self::assertNull(RuntimeOptions::serverOptions(['project_dir' => $project, 'static_dir' => 'none'], [])->staticDir);
        } finally {
            \rmdir($project . '/public/build');
            \rmdir($project . '/public');
            \rmdir($project);
        }
    }

    public function testRuntimeOptionsWinOverTheEnvironment(): void
    {
        $options = RuntimeOptions::serverOptions(
            ['project_dir' => __DIR__, 'port' => 9000, 'workers' => 4],
            ['SPINDLE_PORT' => '0', 'SPINDLE_WORKERS' => '1'],
        );
        self::assertSame(9000, $options->port);
        self::assertSame(4, $options->workers);
    }

    public function testInvalidNumberNamesTheVariable(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('SPINDLE_PORT');
        RuntimeOptions::serverOptions(['project_dir' => __DIR__], ['SPINDLE_PORT' => 'http']);
    }

    public function testProjectDirectoryIsRequired(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        RuntimeOptions::serverOptions(['project_dir' => __DIR__ . '/missing'], []);
    }
}
