<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Server\Channel\Exiting;
use Spindle\Server\Channel\Report;
use Spindle\Server\Channel\Retire;
use Spindle\Server\ExitCause;
use Spindle\Server\RetireReason;
use Spindle\Supervisor\Action\Action;
use Spindle\Supervisor\Action\ExitMaster;
use Spindle\Supervisor\Action\LogLine;
use Spindle\Supervisor\Action\ReloadFinished;
use Spindle\Supervisor\Action\SignalWorker;
use Spindle\Supervisor\Action\SpawnWorker;
use Spindle\Supervisor\ExitStatus;
use Spindle\Supervisor\MasterState;
use Spindle\Supervisor\SupervisorConfig;

/**
 * Workers that served and then ended (a request called exit() or hit a fatal error, or the worker
 * crashed after serving) are replaced at once; back-off is for workers that fail to boot or die
 * before they served anything.
 */
final class MasterStateExitTest extends TestCase
{
    private MasterState $master;
    private int $nextPid = 1000;

    private function boot(SupervisorConfig $config): void
    {
        $this->master = new MasterState($config);
        $this->act($this->master->start(0.0));
    }

    /**
     * @param list<Action> $actions
     *
     * @return list<Action>
     */
    private function act(array $actions): array
    {
        foreach ($actions as $action) {
            if ($action instanceof SpawnWorker) {
                $this->master->spawned($action->id, $this->nextPid++);
            }
        }

        return $actions;
    }

    /** @return array<int, string> state by pid */
    private function states(?int $generation = null): array
    {
        $states = [];
        foreach ($this->master->status(0.0)['workers'] as $worker) {
            if ($generation === null || $worker['generation'] === $generation) {
                $states[$worker['pid']] = $worker['state'];
            }
        }

        return $states;
    }

    private function newest(): int
    {
        return \max(\array_keys($this->states()));
    }

    /**
     * @param list<Action> $actions
     * @param class-string $class
     *
     * @return list<Action>
     */
    private static function only(array $actions, string $class): array
    {
        return \array_values(\array_filter($actions, static fn (Action $a): bool => $a instanceof $class));
    }

    /** @param list<Action> $actions */
    private static function spawns(array $actions): int
    {
        return \count(self::only($actions, SpawnWorker::class));
    }

    /** @param list<Action> $actions */
    private static function firstLog(array $actions): string
    {
        $logs = self::only($actions, LogLine::class);
        self::assertNotSame([], $logs);
        \assert($logs[0] instanceof LogLine);

        return $logs[0]->message;
    }

    private static function exiting(ExitCause $cause = ExitCause::Exit, int $inflight = 10): Exiting
    {
        return new Exiting($cause, 40, $inflight);
    }

    public function testAWorkerThatARequestEndedIsReplacedAtOnceEveryTime(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, drainTimeout: 30.0, backoffBase: 0.5));
        $now = 1.0;
        $this->master->ready($this->newest(), 0.5);
        for ($i = 0; $i < 8; ++$i) {
            $pid = $this->newest();
            $actions = $this->act($this->master->message($pid, self::exiting($i % 2 === 0 ? ExitCause::Exit : ExitCause::FatalError), $now));
            self::assertSame(1, self::spawns($actions), 'replacement number ' . ($i + 1) . ' starts at once');
            self::assertSame(
                \sprintf('Worker %d: a request ended its process (%s); it finishes its 10 other requests while its replacement starts', $pid, $i % 2 === 0 ? 'exit()' : 'fatal error'),
                self::firstLog($actions),
            );
            self::assertSame('draining', $this->states()[$pid], 'it accepts no more and finishes its requests');
            self::assertSame([], self::only($this->master->tick($now + 0.01), SignalWorker::class), 'it is not signalled');

            $this->master->ready($this->newest(), $now + 0.05);
            $actions = $this->master->exited($pid, new ExitStatus(ExitStatus::REPLACE), $now + 0.1);
            self::assertSame(0, self::spawns($actions), 'not replaced twice');
            self::assertStringContainsString('finished its other requests and exited after a request ended it', self::firstLog($actions));
            $now += 0.2;
        }
        $status = $this->master->status($now);
        self::assertSame(['exit' => 4, 'fatal-error' => 4], $status['replaced']);
        self::assertCount(1, $status['workers']);
        self::assertSame('ready', $status['workers'][0]['state']);
    }

    public function testAWorkerThatDiesBeforeItsDrainEndsSaysSo(): void
    {
        $this->boot(new SupervisorConfig(workers: 1));
        $pid = $this->newest();
        $this->master->ready($pid, 0.0);
        $this->act($this->master->message($pid, self::exiting(), 1.0));
        $actions = $this->master->exited($pid, new ExitStatus(0), 1.5);
        self::assertSame(0, self::spawns($actions), 'its replacement is already there');
        self::assertSame(
            "Worker {$pid} exited with status 0 before its other requests finished after a request ended it (exit)",
            self::firstLog($actions),
        );
    }

    public function testTheExitStatusAloneTellsAWorkerThatServed(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, backoffBase: 0.5));
        $this->master->ready($this->newest(), 0.0);
        for ($i = 0; $i < 4; ++$i) {
            $pid = $this->newest();
            $actions = $this->act($this->master->exited($pid, new ExitStatus(ExitStatus::REPLACE), 1.0 + $i));
            self::assertSame(1, self::spawns($actions), 'its word was lost, its exit status says it served');
            $this->master->ready($this->newest(), 1.5 + $i);
        }
    }

    public function testACrashAfterServingIsReplacedAtOnceAndACrashBeforeServingBacksOff(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, backoffBase: 0.5, backoffMax: 4.0));
        $now = 1.0;
        for ($i = 0; $i < 4; ++$i) {
            $pid = $this->newest();
            $this->master->ready($pid, $now);
            $this->master->message($pid, new Report(3, 1, 0, 0, 0, 0.0), $now + 1.0);
            $actions = $this->act($this->master->exited($pid, new ExitStatus(null, \SIGSEGV), $now + 1.1));
            self::assertSame(1, self::spawns($actions), 'crash number ' . ($i + 1) . ' of a worker that served: at once');
            self::assertStringEndsWith('restarting it', self::firstLog($actions));
            $now += 1.2;
        }

        // Dying before serving anything looks like a crash loop: back-off.
        $pid = $this->newest();
        $this->master->ready($pid, $now);
        self::assertSame(1, self::spawns($this->act($this->master->exited($pid, new ExitStatus(255), $now + 0.1))), 'the first is at once');
        $pid = $this->newest();
        $this->master->ready($pid, $now + 0.2);
        $actions = $this->master->exited($pid, new ExitStatus(255), $now + 0.3);
        self::assertSame(0, self::spawns($actions));
        self::assertStringEndsWith('restarting it in 0.5 s', self::firstLog($actions));
        self::assertSame(1, self::spawns($this->act($this->master->tick($now + 0.8))));
    }

    public function testAReplacementThatFailsToBootStillBacksOff(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, backoffBase: 0.5, bootFailureLimit: 5));
        $this->master->ready($this->newest(), 0.0);
        $this->act($this->master->message($this->newest(), self::exiting(), 1.0));

        $actions = $this->master->exited($this->newest(), new ExitStatus(70), 1.1);
        self::assertStringContainsString('failed to boot', self::firstLog($actions));
        self::assertStringEndsWith('retrying in 0.5 s', self::firstLog($actions));
        self::assertSame(0, self::spawns($this->master->tick(1.5)));
        self::assertSame(1, self::spawns($this->act($this->master->tick(1.6))));
        $actions = $this->master->exited($this->newest(), new ExitStatus(70), 1.7);
        self::assertStringEndsWith('retrying in 1.0 s', self::firstLog($actions));
    }

    public function testAnExitingWorkerThatDoesNotFinishIsKilledWithoutAnotherReplacement(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, drainTimeout: 5.0));
        $pid = $this->newest();
        $this->master->ready($pid, 0.0);
        $this->act($this->master->message($pid, self::exiting(), 1.0));
        self::assertSame([], self::only($this->master->tick(5.9), SignalWorker::class));
        $kill = self::only($this->master->tick(6.0), SignalWorker::class);
        self::assertCount(1, $kill);
        \assert($kill[0] instanceof SignalWorker);
        self::assertSame([$pid, \SIGKILL], [$kill[0]->pid, $kill[0]->signal]);
        $actions = $this->master->exited($pid, new ExitStatus(null, \SIGKILL), 6.1);
        self::assertSame(0, self::spawns($actions));
        self::assertStringContainsString('did not finish within the drain timeout', self::firstLog($actions));
    }

    public function testARetiringWorkerThatARequestEndsIsNotReplacedTwice(): void
    {
        $this->boot(new SupervisorConfig(workers: 1));
        $pid = $this->newest();
        $this->master->ready($pid, 0.0);
        self::assertSame(1, self::spawns($this->act($this->master->message($pid, new Retire(RetireReason::MaxRequests), 1.0))));
        $actions = $this->master->message($pid, self::exiting(), 1.1);
        self::assertSame(0, self::spawns($actions), 'its replacement is already starting');
        self::assertStringEndsWith('its replacement, already starting, takes over', self::firstLog($actions));
        self::assertSame([], self::only($this->master->ready($this->newest(), 1.2), SignalWorker::class), 'it stops by itself');
        self::assertSame(0, self::spawns($this->master->exited($pid, new ExitStatus(ExitStatus::REPLACE), 2.0)));
        self::assertSame(['ready'], \array_values($this->states()));
    }

    public function testDuringAReloadTheOldGenerationsSlotWaitsForTheOutcome(): void
    {
        $this->boot(new SupervisorConfig(workers: 1));
        $old = $this->newest();
        $this->master->ready($old, 0.0);
        $this->act($this->master->reload(10.0));
        $new = $this->newest();

        $actions = $this->master->message($old, self::exiting(), 10.1);
        self::assertSame(0, self::spawns($actions), 'the reload replaces it');
        self::assertStringEndsWith('the reload in progress replaces it', self::firstLog($actions));

        // The new code fails to boot: the old generation's slot is filled again.
        $actions = $this->master->exited($new, new ExitStatus(70), 10.2);
        $finished = self::only($actions, ReloadFinished::class)[0];
        \assert($finished instanceof ReloadFinished);
        self::assertFalse($finished->succeeded);
        $spawned = self::only($this->act($this->master->tick(10.3)), SpawnWorker::class);
        self::assertCount(1, $spawned);
        \assert($spawned[0] instanceof SpawnWorker);
        self::assertSame(1, $spawned[0]->generation);
    }

    public function testWhileStoppingAnExitChangesNothing(): void
    {
        $this->boot(new SupervisorConfig(workers: 1));
        $pid = $this->newest();
        $this->master->ready($pid, 0.0);
        $this->master->stop(1.0);
        self::assertSame([], $this->master->message($pid, self::exiting(), 1.1));
        self::assertCount(1, self::only($this->master->exited($pid, new ExitStatus(ExitStatus::REPLACE), 1.2), ExitMaster::class));
    }
}
