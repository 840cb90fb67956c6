<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\ControlCommand;
use Symfony\Component\Console\Tester\CommandTester;

/** `spindle status|reload|stop`: what they say when they cannot ask a master. */
final class ControlCommandTest extends TestCase
{
    /** @param array<string, string|bool> $input */
    private static function command(string $verb, array $input): CommandTester
    {
        $tester = new CommandTester(new ControlCommand($verb, 'test'));
        $tester->execute($input);

        return $tester;
    }

    /** @return iterable<string, array{string}> */
    public static function badTimeouts(): iterable
    {
        yield 'not a number' => ['abc'];
        yield 'zero' => ['0'];
        yield 'negative' => ['-1'];
    }

    /** @dataProvider badTimeouts */
    public function testTimeoutMustBeAPositiveNumber(string $timeout): void
    {
        foreach (['status', 'reload', 'stop'] as $verb) {
            $tester = self::command($verb, ['--pid-file' => '/nonexistent/spindle.pid', '--timeout' => $timeout]);
            self::assertSame(2, $tester->getStatusCode(), $verb);
            self::assertStringContainsString(\sprintf('--timeout must be a number of seconds above 0, got "%s"', $timeout), $tester->getDisplay());
        }
    }

    public function testPortMustBeANumber(): void
    {
        $tester = self::command('status', ['--port' => 'http']);
        self::assertSame(2, $tester->getStatusCode());
        self::assertStringContainsString('--port must be a whole number, got "http"', $tester->getDisplay());
    }

    public function testStatusText(): void
    {
        $worker = ['id' => 1, 'pid' => 4060, 'generation' => 2, 'state' => 'ready', 'requests' => 13, 'inflight' => 1, 'connections' => 3, 'memory' => 4194304, 'lag' => 0.0, 'started_at' => 1795325505.2, 'uptime' => 1.9, 'restarts' => 0];
        $lines = ControlCommand::statusLines([
            'phase' => 'running',
            'generation' => 2,
            'uptime' => 61.5,
            'last_reload_error' => 'RuntimeException: <boom>',
            'workers' => [
                $worker,
                // A Laravel app's worker: 3 database sessions held by requests, 1 free, 2 requests waiting.
                ['pid' => 4061, 'db_busy' => 3, 'db_idle' => 1, 'db_waiting' => 2] + $worker,
                // 2 of its 3 connections are WebSockets.
                ['pid' => 4062, 'websockets' => 2] + $worker,
                // Booted a moment ago: no report yet.
                ['pid' => 4070, 'state' => 'booting', 'requests' => 0, 'inflight' => 0, 'connections' => 0, 'memory' => 0, 'restarts' => 1] + $worker,
            ],
            'pid' => 4053,
            'address' => 'http://127.0.0.1:8080',
        ]);
        self::assertSame([
            'Spindle http://127.0.0.1:8080: master 4053, running, generation 2, up 61s',
            'Last reload failed: RuntimeException: <boom>',
            'pid      gen  state      requests inflight  conns     ws    memory          db restarts started',
            '4060     2    ready            13        1      3      0      4.0M           -        0 2026-11-22 05:31:45',
            '4061     2    ready            13        1      3      0      4.0M      3/4 w2        0 2026-11-22 05:31:45',
            '4062     2    ready            13        1      3      2      4.0M           -        0 2026-11-22 05:31:45',
            '4070     2    booting           -        -      -      -         -           -        1 2026-11-22 05:31:45',
        ], $lines);
    }

    public function testNoServer(): void
    {
        $tester = self::command('stop', ['--pid-file' => '/nonexistent/spindle.pid']);
        self::assertSame(1, $tester->getStatusCode());
        self::assertStringContainsString('No Spindle server is running: the control socket /nonexistent/spindle.sock does not exist', $tester->getDisplay());
    }
}
