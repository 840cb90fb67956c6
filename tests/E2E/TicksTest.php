<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Spindle\every() in a real worker (tests/fixtures/apps/ticks.php): runs come at their interval,
 * each isolated as a request, never two of one tick at once, errors logged and counted, and no
 * run starts once the worker drains.
 */
final class TicksTest extends E2ETestCase
{
    private static function server(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('ticks.php'), ['--workers=1']);
    }

    /** @return array<mixed> */
    private static function state(): array
    {
        $response = self::rawRequest(self::server(), self::get('/ticks', "Connection: close\r\n"));
        self::assertSame(200, $response->status, $response->raw);

        return $response->json();
    }

    public function testRunsComeAtTheirIntervalEachIsolatedAsARequest(): void
    {
        self::server();
        self::assertTrue(self::eventually(static fn (): bool => \count(self::state()['fast']) >= 8, 10.0), 'the 0.1 s tick ran 8 times');
        $state = self::state();
        $times = \array_column($state['fast'], 0);
        for ($i = 1; $i < \count($times); ++$i) {
            // A repeat timer never fires early; a loaded machine may make it late.
            self::assertGreaterThanOrEqual(0.09, $times[$i] - $times[$i - 1], 'runs are at least the interval apart');
        }
        foreach ($state['fast'] as [, $zone, $label]) {
            self::assertSame('UTC', $zone, 'each run starts from the worker\'s baseline, not the previous run\'s time zone');
            self::assertSame('tick fast', $label, 'each run has a context of its own');
        }
        // Counted when a run ends (after its wait): the last run seen may still be going.
        self::assertGreaterThanOrEqual(\count($times) - 1, (int) $state['metrics']['fast_ok']);
    }

    public function testARequestNeverSeesATicksState(): void
    {
        $response = self::rawRequest(self::server(), self::get('/zone', "Connection: close\r\n"));
        self::assertSame('UTC', $response->body);
    }

    public function testOneTickNeverRunsTwiceAtOnce(): void
    {
        self::server();
        self::assertTrue(self::eventually(static fn (): bool => \count(self::state()['slow']) >= 4, 10.0));
        $state = self::state();
        self::assertSame(0, $state['overlap']);
        $runs = $state['slow'];
        for ($i = 1; $i < \count($runs); ++$i) {
            self::assertGreaterThanOrEqual($runs[$i - 1][1], $runs[$i][0], 'a run starts after the previous one ended');
        }
        self::assertGreaterThan(0.0, $state['metrics']['slow_skipped'], 'beats during a run are skipped and counted');
    }

    public function testAFailingRunIsLoggedCountedAndTheTickGoesOn(): void
    {
        $server = self::server();
        self::assertTrue(self::eventually(static fn (): bool => self::state()['metrics']['failing_error'] >= 3.0, 10.0));
        self::assertStringContainsString('Tick failing failed: this tick always fails', $server->stderr());
        self::assertServerAnswers($server, '/ticks');
    }

    public function testNoRunStartsOnceTheWorkerDrainsAndRunsUnderWayFinish(): void
    {
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-e2e-ticks-');
        self::assertIsString($file);
        \putenv('SPINDLE_TEST_TICK_FILE=' . $file);
        try {
            $server = ServerProcess::start(ServerProcess::fixture('ticks.php'), ['--workers=1', '--drain-timeout=10']);
        } finally {
            \putenv('SPINDLE_TEST_TICK_FILE');
        }
        try {
            self::assertTrue(self::eventually(static fn (): bool => \str_contains((string) \file_get_contents($file), 'start'), 10.0), 'the long tick started');
            $server->signal(\SIGTERM);
            self::assertNotNull($server->waitForExit(15.0), 'the server stopped');
        } finally {
            $server->stop();
        }
        $lines = \array_map(static fn (string $line): array => \explode(' ', $line), \file($file, \FILE_IGNORE_NEW_LINES) ?: []);
        @\unlink($file);
        $starts = \array_filter($lines, static fn (array $l): bool => $l[0] === 'start');
        $ends = \array_filter($lines, static fn (array $l): bool => $l[0] === 'end');
        $beats = \array_filter($lines, static fn (array $l): bool => $l[0] === 'beat');
        self::assertCount(1, $starts, 'one run of the long tick');
        self::assertCount(1, $ends, 'the run under way finished during the drain');
        self::assertNotSame([], $beats);
        $end = (float) \array_values($ends)[0][1];
        $lastBeat = (float) \end($beats)[1];
        // The long run ends 1 s after it started; beats went on until the stop, then stopped, while
        // the long run kept the worker draining.
        self::assertLessThan($end - 0.5, $lastBeat, 'no beat ran during the drain');
    }
}
