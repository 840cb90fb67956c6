<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use PHPUnit\Framework\TestCase;

/** JitRestart::budgetAdvice() in PHP processes started with the settings it reads. */
final class JitRestartTest extends TestCase
{
    public function testATracingJitOnPhpsDefaultBudgetIsToldToRaiseIt(): void
    {
        $advice = self::adviceUnder(['opcache.enable_cli=1', 'opcache.jit=tracing', 'opcache.jit_buffer_size=64M']);

        self::assertStringContainsString('at most 1024 traces', $advice);
        self::assertStringContainsString('-d opcache.jit_max_root_traces=8192', $advice);
    }

    public function testNoAdviceWithTheBudgetOrWithoutTheTracingJit(): void
    {
        self::assertSame('', self::adviceUnder(['opcache.enable_cli=1', 'opcache.jit=tracing', 'opcache.jit_buffer_size=64M', 'opcache.jit_max_root_traces=8192']));
        self::assertSame('', self::adviceUnder(['opcache.enable_cli=1', 'opcache.jit=function', 'opcache.jit_buffer_size=64M']));
        self::assertSame('', self::adviceUnder(['opcache.enable_cli=0']));
    }

    /** @param list<string> $settings */
    private static function adviceUnder(array $settings): string
    {
        $command = [\PHP_BINARY];
        foreach ($settings as $setting) {
            \array_push($command, '-d', $setting);
        }
        $autoload = \dirname(__DIR__, 3) . '/vendor/autoload.php';
        \array_push($command, '-r', 'require ' . \var_export($autoload, true) . '; echo Spindle\Server\JitRestart::budgetAdvice();');
        $process = \proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $out = (string) \stream_get_contents($pipes[1]);
        $err = (string) \stream_get_contents($pipes[2]);
        self::assertSame(0, \proc_close($process), $err);

        return $out;
    }
}
