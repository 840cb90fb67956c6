<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop\Isolation;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;

use function Spindle\delay;

/**
 * Two tasks that change process-wide state and wait in between: each sees only its own change,
 * code outside the tasks sees the baseline, and nothing is left once a task ends.
 */
final class ProcessStateTest extends TestCase
{
    private TaskRunner $runner;

    protected function setUp(): void
    {
        $this->runner = new TaskRunner(Loop::driver());
        Loop::driver()->isolation->rebase();
    }

    /**
     * Runs $task as 'a' and as 'b' at the same time (b starts while a waits); returns what each
     * returned.
     *
     * @param \Closure(string): mixed $task
     *
     * @return array{a: mixed, b: mixed}
     */
    private function together(\Closure $task): array
    {
        $results = [];
        foreach (['a', 'b'] as $name) {
            $this->runner->run(new Context($name), static function () use ($task, $name, &$results): void {
                $results[$name] = $task($name);
            });
        }
        EventLoop::run();

        return ['a' => $results['a'], 'b' => $results['b']];
    }

    public function testEachTaskHasItsOwnOutputBufferStack(): void
    {
        $base = \ob_get_level();
        $outside = [];
        $results = $this->together(static function (string $name) use ($base, &$outside): array {
            \ob_start();
            echo "<$name-1>";
            EventLoop::queue(static function () use (&$outside): void {
                $outside[] = \ob_get_level();
            });
            delay(0.01);
            \ob_start();
            echo "<$name-2>";
            delay(0.01);
            $inner = \ob_get_clean();
            echo "<$name-3>";
            $levels = \ob_get_level() - $base;

            return [$inner, \ob_get_clean(), $levels];
        });

        self::assertSame(['<a-2>', '<a-1><a-3>', 1], $results['a']);
        self::assertSame(['<b-2>', '<b-1><b-3>', 1], $results['b']);
        self::assertSame([$base, $base], $outside, 'the loop runs with the baseline stack');
        self::assertSame($base, \ob_get_level());
    }

    public function testBuffersKeepTheirChunkSizeFlagsAndNamedHandlers(): void
    {
        $results = $this->together(static function (string $name): array {
            \ob_start(self::class . '::upper', 0, \PHP_OUTPUT_HANDLER_STDFLAGS);
            \ob_start(null, 4096, \PHP_OUTPUT_HANDLER_CLEANABLE | \PHP_OUTPUT_HANDLER_REMOVABLE);
            echo "$name-inner ";
            delay(0.01);
            $status = \ob_get_status(true);
            $top = $status[\count($status) - 1];
            \ob_end_flush();
            $flushed = \ob_get_clean();

            return [$top['chunk_size'], $top['flags'] & \PHP_OUTPUT_HANDLER_STDFLAGS, $flushed, $status[\count($status) - 2]['name']];
        });

        $flags = \PHP_OUTPUT_HANDLER_CLEANABLE | \PHP_OUTPUT_HANDLER_REMOVABLE;
        self::assertSame([4096, $flags, 'a-inner ', self::class . '::upper'], $results['a']);
        self::assertSame([4096, $flags, 'b-inner ', self::class . '::upper'], $results['b']);
    }

    public function testAHandlerStartedThroughTheLoopStaysItsBuffersHandler(): void
    {
        $seen = ['a' => [], 'b' => []];
        $this->together(static function (string $name) use (&$seen): string {
            Loop::startOutputBuffer(static function (string $buffer) use (&$seen, $name): string {
                if ($buffer !== '') {
                    $seen[$name][] = $buffer;
                }

                return '';
            }, 1);
            echo "$name-before";
            delay(0.01);
            echo "$name-after";
            \ob_end_clean();

            return $name;
        });

        self::assertSame(['a' => ['a-before', 'a-after'], 'b' => ['b-before', 'b-after']], $seen);
    }

    public function testBuffersLeftOpenAreDroppedWhenTheTaskEnds(): void
    {
        $base = \ob_get_level();
        $next = null;
        $this->runner->run(new Context('leaves a buffer'), static function (): void {
            \ob_start();
            echo 'secret of the first request';
            delay(0.01);
            \ob_start();
        });
        EventLoop::run();
        $this->runner->run(new Context('next'), static function () use (&$next, $base): void {
            $next = [\ob_get_level() - $base, \ob_get_contents()];
        });
        EventLoop::run();

        self::assertSame([0, $base === 0 ? false : ''], [$next[0], $next[1] === false ? false : '']);
        self::assertSame($base, \ob_get_level());
    }

    /** @return iterable<string, array{\Closure(string): void, \Closure(): mixed}> */
    public static function settings(): iterable
    {
        yield 'time zone' => [
            static fn (string $n) => \date_default_timezone_set($n === 'a' ? 'Asia/Tokyo' : 'America/Lima'),
            static fn (): string => \date_default_timezone_get(),
        ];
        yield 'locale' => [
            static fn (string $n) => \setlocale($n === 'a' ? \LC_NUMERIC : \LC_TIME, 'C.UTF-8'),
            static fn (): string|false => \setlocale(\LC_ALL, '0'),
        ];
        yield 'error reporting' => [
            static fn (string $n) => \error_reporting($n === 'a' ? \E_ALL & ~\E_NOTICE : \E_ERROR),
            static fn (): int => \error_reporting(),
        ];
        yield 'mbstring encoding' => [
            static fn (string $n) => \mb_internal_encoding($n === 'a' ? 'ISO-8859-1' : 'UTF-16'),
            static fn (): string => \mb_internal_encoding(),
        ];
        yield 'libxml errors' => [
            static fn (string $n) => \libxml_use_internal_errors(true),
            static fn (): bool => \libxml_use_internal_errors(),
        ];
        yield 'working directory' => [
            static fn (string $n) => \chdir($n === 'a' ? '/tmp' : '/'),
            static fn (): string|false => \getcwd(),
        ];
        yield 'response code' => [
            static fn (string $n) => \http_response_code($n === 'a' ? 404 : 503),
            static fn (): int|bool => \http_response_code(),
        ];
        foreach (['precision' => ['5', '9'], 'serialize_precision' => ['10', '12'], 'memory_limit' => ['900M', '800M'], 'default_charset' => ['ISO-8859-1', 'UTF-16'], 'user_agent' => ['agent-a', 'agent-b'], 'arg_separator.output' => [';', '|'], 'pcre.backtrack_limit' => ['12345', '54321']] as $ini => [$a, $b]) {
            yield "ini $ini" => [
                static fn (string $n) => \ini_set($ini, $n === 'a' ? $a : $b),
                static fn (): string|false => \ini_get($ini),
            ];
        }
        yield 'superglobals' => [
            static function (string $n): void {
                $_GET['who'] = $n;
                $_SERVER['REQUEST_URI'] = "/$n";
            },
            static fn (): array => [$_GET['who'] ?? null, $_SERVER['REQUEST_URI'] ?? null],
        ];
    }

    /**
     * @dataProvider settings
     *
     * @param \Closure(string): void $change
     * @param \Closure(): mixed $read
     */
    public function testEachTaskKeepsItsOwnSetting(\Closure $change, \Closure $read): void
    {
        $baseline = $read();
        $outside = [];
        try {
            $results = $this->together(static function (string $name) use ($change, $read, &$outside): array {
                $before = $read();
                $change($name);
                $mine = $read();
                EventLoop::queue(static function () use ($read, &$outside): void {
                    $outside[] = $read();
                });
                delay(0.01);
                $afterWait = $read();
                delay(0.01);

                return [$before, $mine, $afterWait, $read()];
            });
        } finally {
            $after = $read();
        }

        foreach (['a', 'b'] as $name) {
            [$before, $mine, $afterWait, $end] = $results[$name];
            self::assertSame($baseline, $before, "$name starts from the baseline");
            self::assertNotSame($baseline, $mine, "$name changed it");
            self::assertSame($mine, $afterWait, "$name sees its own value after a wait");
            self::assertSame($mine, $end);
        }
        if (!\is_bool($results['a'][1])) {
            self::assertNotSame($results['a'][1], $results['b'][1]);
        }
        self::assertSame([$baseline, $baseline], $outside, 'the loop runs with the baseline');
        self::assertSame($baseline, $after, 'nothing is left once the tasks end');
    }

    public function testErrorAndExceptionHandlersBelongToTheirTask(): void
    {
        $baseError = \set_error_handler(null);
        \restore_error_handler();
        $results = $this->together(static function (string $name): array {
            $mine = static fn (): bool => true;
            \set_error_handler($mine);
            \set_exception_handler($mine);
            delay(0.01);
            $error = \set_error_handler(null);
            \restore_error_handler();
            $exception = \set_exception_handler(null);
            \restore_exception_handler();
            \restore_error_handler();
            $popped = \set_error_handler(null);
            \restore_error_handler();

            return [$error === $mine, $exception === $mine, $popped];
        });

        self::assertSame([true, true, $baseError], $results['a']);
        self::assertSame([true, true, $baseError], $results['b']);
        $after = \set_error_handler(null);
        \restore_error_handler();
        self::assertSame($baseError, $after);
    }

    public function testATaskStartedFromInsideAnotherStartsFromTheBaseline(): void
    {
        $runner = $this->runner;
        $seen = [];
        $base = \ob_get_level();
        \ob_start();
        Loop::driver()->isolation->rebase();
        $runner->run(new Context('parent'), static function () use ($runner, &$seen): void {
            \ob_start();
            echo 'parent output';
            \date_default_timezone_set('Asia/Tokyo');
            $runner->run(new Context('child'), static function () use (&$seen): void {
                echo 'child output';
                $seen['child'] = [\date_default_timezone_get(), \ob_get_level()];
                delay(0.01);
            });
            $seen['parent'] = [\date_default_timezone_get(), \ob_get_clean()];
        });
        EventLoop::run();
        $printed = \ob_get_clean();

        self::assertSame([\date_default_timezone_get(), $base + 1], $seen['child'], 'the child prints where code outside any task prints');
        self::assertSame(['Asia/Tokyo', 'parent output'], $seen['parent']);
        self::assertSame('child output', $printed);
    }

    public function testAChildTaskCanInheritItsParentsSettingsButNotItsBuffers(): void
    {
        $zone = \date_default_timezone_get();
        $seen = [];
        $this->runner->run(new Context('request'), static function () use (&$seen): void {
            \date_default_timezone_set('Asia/Tokyo');
            \ob_start();
            echo 'request output';
            Loop::startChild(new Context('streamed body'), static function () use (&$seen): void {
                $seen['child'] = [\date_default_timezone_get(), \ob_get_level()];
                $seen['child task'] = Loop::context()?->label;
                delay(0.01);
                $seen['child after wait'] = \date_default_timezone_get();
                \date_default_timezone_set('Europe/Paris');
            });
            $seen['request'] = [\date_default_timezone_get(), \ob_get_clean(), Loop::context()?->label];
            delay(0.02);
            $seen['request after the child changed its zone'] = \date_default_timezone_get();
        });
        $level = \ob_get_level();
        EventLoop::run();

        self::assertSame(['Asia/Tokyo', $level], $seen['child']);
        self::assertSame('streamed body', $seen['child task']);
        self::assertSame('Asia/Tokyo', $seen['child after wait']);
        self::assertSame(['Asia/Tokyo', 'request output', 'request'], $seen['request']);
        self::assertSame('Asia/Tokyo', $seen['request after the child changed its zone'], 'what the child changes stays its own');
        self::assertSame($zone, \date_default_timezone_get(), 'nothing is left once both ended');
    }

    public function testIsolatedWorkRunsFromTheBaselineAndLeavesTheTaskAsItWas(): void
    {
        $isolation = Loop::driver()->isolation;
        $seen = null;
        $this->runner->run(new Context('boots'), static function () use ($isolation, &$seen): void {
            \ob_start();
            echo 'request output';
            \date_default_timezone_set('Asia/Tokyo');
            $inside = $isolation->isolated(static function (): array {
                $seen = [\date_default_timezone_get(), \ob_get_level()];
                \date_default_timezone_set('Europe/Paris');
                \ob_start();
                echo 'boot noise';

                return $seen;
            });
            $seen = [$inside, \date_default_timezone_get(), \ob_get_clean()];
        });
        EventLoop::run();

        self::assertSame([[\date_default_timezone_get(), \ob_get_level()], 'Asia/Tokyo', 'request output'], $seen);
    }

    public static function upper(string $buffer): string
    {
        return \strtoupper($buffer);
    }
}
