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

    public function testNoServer(): void
    {
        $tester = self::command('stop', ['--pid-file' => '/nonexistent/spindle.pid']);
        self::assertSame(1, $tester->getStatusCode());
        self::assertStringContainsString('No Spindle server is running: the control socket /nonexistent/spindle.sock does not exist', $tester->getDisplay());
    }
}
