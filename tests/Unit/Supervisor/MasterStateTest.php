<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Server\Channel\BootFailed;
use Spindle\Server\Channel\Ready;
use Spindle\Server\Channel\Report;
use Spindle\Server\Channel\Retire;
use Spindle\Server\RetireReason;
use Spindle\Supervisor\Action\Action;
use Spindle\Supervisor\Action\Announce;
use Spindle\Supervisor\Action\ExitMaster;
use Spindle\Supervisor\Action\LogLine;
use Spindle\Supervisor\Action\ReloadFinished;
use Spindle\Supervisor\Action\ReloadRefused;
use Spindle\Supervisor\Action\SignalWorker;
use Spindle\Supervisor\Action\SpawnWorker;
use Spindle\Supervisor\ExitStatus;
use Spindle\Supervisor\MasterPhase;
use Spindle\Supervisor\MasterState;
use Spindle\Supervisor\SupervisorConfig;

/** Drives the master's state machine the way the process layer does, with fake pids and times. */
final class MasterStateTest extends TestCase
{
    private MasterState $master;
    private int $nextPid = 1000;
    /** @var array<int, int> generation by pid */
    private array $generations = [];

    private function boot(SupervisorConfig $config): void
    {
        $this->master = new MasterState($config);
        $this->act($this->master->start(0.0));
    }

    /**
     * Plays the process layer: forks what is asked (fake pids), returns the other actions.
     *
     * @param list<Action> $actions
     *
     * @return list<Action>
     */
    private function act(array $actions): array
    {
        foreach ($actions as $action) {
            if ($action instanceof SpawnWorker) {
                $pid = $this->nextPid++;
                $this->generations[$pid] = $action->generation;
                $this->master->spawned($action->id, $pid);
            }
        }

        return $actions;
    }

    /** @return list<int> */
    private function pids(?int $generation = null): array
    {
        $status = $this->master->status(0.0);
        $pids = [];
        foreach ($status['workers'] as $worker) {
            if ($generation === null || $worker['generation'] === $generation) {
                $pids[] = $worker['pid'];
            }
        }

        return $pids;
    }

    /** @return array<int, string> state by pid */
    private function states(): array
    {
        $states = [];
        foreach ($this->master->status(0.0)['workers'] as $worker) {
            $states[$worker['pid']] = $worker['state'];
        }

        return $states;
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
    private static function signals(array $actions): array
    {
        return \array_map(static fn (SignalWorker $s): array => [$s->pid, $s->signal], self::only($actions, SignalWorker::class));
    }

    public function testStartForksEveryWorkerAndAnnouncesWhenAllAreReady(): void
    {
        $this->boot(new SupervisorConfig(workers: 3));
        self::assertCount(3, $this->pids());
        self::assertSame(MasterPhase::Starting, $this->master->phase());

        [$a, $b, $c] = $this->pids();
        self::assertSame([], $this->master->ready($a, 0.1));
        self::assertSame([], $this->master->ready($b, 0.1));
        $actions = $this->master->ready($c, 0.2);
        self::assertCount(1, self::only($actions, Announce::class));
        self::assertSame(MasterPhase::Running, $this->master->phase());
        self::assertSame([], $this->master->ready($c, 0.3), 'a duplicate ready changes nothing');
    }

    public function testABootFailureAtStartStopsTheServerWithItsError(): void
    {
        $this->boot(new SupervisorConfig(workers: 2));
        [$a, $b] = $this->pids();
        $this->master->ready($a, 0.1);
        $this->master->message($b, new BootFailed('RuntimeException: no database'), 0.2);
        $actions = $this->master->exited($b, new ExitStatus(70), 0.2);

        $logs = self::only($actions, LogLine::class);
        self::assertStringContainsString('no database', $logs[0]->message);
        self::assertSame([[$a, \SIGTERM]], self::signals($actions));
        self::assertSame(MasterPhase::Stopping, $this->master->phase());
        $exit = self::only($this->master->exited($a, new ExitStatus(0), 0.3), ExitMaster::class);
        self::assertSame(1, $exit[0]->code);
    }

    public function testACrashedWorkerIsReplacedAtOnceThenWithGrowingBackoff(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, backoffBase: 0.5, backoffMax: 4.0));
        [$a] = $this->pids();
        $this->master->ready($a, 0.0);

        $actions = $this->act($this->master->exited($a, new ExitStatus(null, \SIGKILL), 10.0));
        self::assertCount(1, self::only($actions, SpawnWorker::class), 'first crash: restarted at once');
        self::assertStringContainsString('killed by signal 9', self::only($actions, LogLine::class)[0]->message);
        [$b] = $this->pids();
        $this->master->ready($b, 10.1);

        $actions = $this->master->exited($b, new ExitStatus(255), 11.0);
        self::assertSame([], self::only($actions, SpawnWorker::class), 'second crash in the window waits');
        self::assertStringContainsString('exited with status 255', self::only($actions, LogLine::class)[0]->message);
        self::assertSame([], self::only($this->master->tick(11.4), SpawnWorker::class));
        $actions = $this->act($this->master->tick(11.5));
        self::assertCount(1, self::only($actions, SpawnWorker::class), 'after 0.5 s');

        [$c] = $this->pids();
        $this->master->ready($c, 11.6);
        $this->master->exited($c, new ExitStatus(1), 12.0);
        self::assertSame([], self::only($this->master->tick(12.9), SpawnWorker::class));
        self::assertCount(1, self::only($this->act($this->master->tick(13.0)), SpawnWorker::class), 'then after 1 s');
        self::assertSame(3, $this->master->status(13.0)['workers'][0]['restarts']);
    }

    public function testBootFailuresOfReplacementsAreRetriedThenTheServerGivesUp(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, backoffBase: 0.1, backoffMax: 1.0, bootFailureLimit: 2, crashWindow: 60.0));
        [$a] = $this->pids();
        $this->master->ready($a, 0.0);
        $this->act($this->master->exited($a, new ExitStatus(1), 1.0));

        $now = 1.0;
        for ($attempt = 1; $attempt <= 2; ++$attempt) {
            [$booting] = $this->pids();
            $actions = $this->master->exited($booting, new ExitStatus(70), $now);
            self::assertStringContainsString('retrying', self::only($actions, LogLine::class)[0]->message);
            $now += 1.0;
            self::assertCount(1, self::only($this->act($this->master->tick($now)), SpawnWorker::class));
        }
        [$booting] = $this->pids();
        $this->master->message($booting, new BootFailed('ParseError: syntax error'), $now);
        $actions = $this->master->exited($booting, new ExitStatus(70), $now);
        self::assertStringContainsString('giving up: ParseError', self::only($actions, LogLine::class)[0]->message);
        self::assertSame(1, self::only($actions, ExitMaster::class)[0]->code);
    }

    public function testARetiringWorkerServesUntilItsReplacementIsReady(): void
    {
        $this->boot(new SupervisorConfig(workers: 2, drainTimeout: 5.0));
        [$a, $b] = $this->pids();
        $this->master->ready($a, 0.0);
        $this->master->ready($b, 0.0);

        $actions = $this->act($this->master->message($a, new Retire(RetireReason::MaxRequests), 3.0));
        self::assertCount(1, self::only($actions, SpawnWorker::class));
        self::assertSame([], self::signals($actions), 'nobody is stopped before the replacement accepts');
        self::assertSame('retiring', $this->states()[$a]);
        self::assertSame([], $this->master->message($a, new Retire(RetireReason::MaxRequests), 3.1), 'asked once');

        $replacement = \max($this->pids());
        $actions = $this->master->ready($replacement, 3.5);
        self::assertSame([[$a, \SIGTERM]], self::signals($actions));
        self::assertSame('draining', $this->states()[$a]);

        $actions = $this->master->exited($a, new ExitStatus(0), 4.0);
        self::assertSame([], self::only($actions, SpawnWorker::class), 'a drained worker is not replaced twice');
        self::assertCount(2, $this->pids());
    }

    public function testADrainThatTakesTooLongIsKilled(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, drainTimeout: 5.0));
        [$a] = $this->pids();
        $this->master->ready($a, 0.0);
        $this->act($this->master->message($a, new Retire(RetireReason::MaxMemory), 1.0));
        $this->master->ready(\max($this->pids()), 1.5);

        self::assertSame([], self::signals($this->master->tick(6.4)));
        self::assertSame([[$a, \SIGKILL]], self::signals($this->master->tick(6.5)));
        self::assertSame([], self::signals($this->master->tick(7.0)), 'killed once');
        self::assertSame([], self::only($this->master->exited($a, new ExitStatus(null, \SIGKILL), 7.1), SpawnWorker::class));
    }

    public function testTtlRecyclesWorkersWithJitter(): void
    {
        $this->boot(new SupervisorConfig(workers: 2, ttl: 100.0));
        [$a, $b] = $this->pids();
        $this->master->ready($a, 0.0);
        $this->master->ready($b, 0.0);
        self::assertSame([], self::only($this->master->tick(99.9), SpawnWorker::class));
        $spawned = 0;
        $times = [];
        for ($t = 100.0; $t <= 111.0; $t += 0.5) {
            $n = \count(self::only($this->act($this->master->tick($t)), SpawnWorker::class));
            if ($n > 0) {
                $times[] = $t;
            }
            $spawned += $n;
        }
        self::assertSame(2, $spawned, 'each worker recycled once within TTL + 10%');
        self::assertNotSame($times[0], $times[1] ?? $times[0], 'not at the same moment');
    }

    public function testASilentWorkerIsKilledAndReplaced(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, heartbeatTimeout: 10.0));
        [$a] = $this->pids();
        $this->master->ready($a, 0.0);
        $this->master->message($a, new Report(5, 1, 0, 1 << 21, 1 << 21, 0.0), 5.0);
        self::assertSame([], self::signals($this->master->tick(15.0)));
        $actions = $this->master->tick(15.1);
        self::assertSame([[$a, \SIGKILL]], self::signals($actions));
        self::assertStringContainsString('has not responded', self::only($actions, LogLine::class)[0]->message);

        $actions = $this->act($this->master->exited($a, new ExitStatus(null, \SIGKILL), 15.2));
        self::assertCount(1, self::only($actions, SpawnWorker::class));
        self::assertSame("Worker {$a} did not respond and was killed by signal 9; restarting it", self::only($actions, LogLine::class)[0]->message);
    }

    public function testReloadStartsANewGenerationAndDrainsTheOldOneOnlyWhenAllOfItIsReady(): void
    {
        $this->boot(new SupervisorConfig(workers: 2));
        [$a, $b] = $this->pids(1);
        $this->master->ready($a, 0.0);
        $this->master->ready($b, 0.0);

        $actions = $this->act($this->master->reload(10.0));
        self::assertCount(2, self::only($actions, SpawnWorker::class));
        self::assertSame(MasterPhase::Reloading, $this->master->phase());
        self::assertSame(2, $this->master->generation());
        [$c, $d] = $this->pids(2);

        self::assertSame([], self::signals($this->master->ready($c, 10.5)), 'half of the new generation is not enough');
        $actions = $this->master->ready($d, 10.6);
        self::assertSame([[$a, \SIGTERM], [$b, \SIGTERM]], self::signals($actions));
        self::assertTrue(self::only($actions, ReloadFinished::class)[0]->succeeded);
        self::assertSame(MasterPhase::Running, $this->master->phase());
        self::assertSame([], self::only($this->master->exited($a, new ExitStatus(0), 11.0), SpawnWorker::class));
    }

    public function testAReloadWhoseCodeDoesNotBootKeepsTheOldGeneration(): void
    {
        $this->boot(new SupervisorConfig(workers: 2));
        [$a, $b] = $this->pids(1);
        $this->master->ready($a, 0.0);
        $this->master->ready($b, 0.0);
        $this->act($this->master->reload(10.0));
        [$c, $d] = $this->pids(2);
        $this->master->ready($c, 10.2);

        $this->master->message($d, new BootFailed('Error: Class "Foo" not found'), 10.3);
        $actions = $this->master->exited($d, new ExitStatus(70), 10.3);
        self::assertSame([[$c, \SIGTERM]], self::signals($actions), 'only the new generation is stopped');
        $finished = self::only($actions, ReloadFinished::class)[0];
        self::assertFalse($finished->succeeded);
        self::assertStringContainsString('Class "Foo" not found', (string) $finished->error);
        self::assertSame(1, $this->master->generation());
        self::assertSame(MasterPhase::Running, $this->master->phase());
        self::assertStringContainsString('Foo', (string) $this->master->status(11.0)['last_reload_error']);
        self::assertSame(['ready', 'ready', 'draining'], \array_values($this->states()));

        // The old generation still serves, and a later reload can succeed.
        $this->master->exited($c, new ExitStatus(0), 10.5);
        $this->act($this->master->reload(20.0));
        foreach ($this->pids(2) as $pid) {
            $actions = $this->master->ready($pid, 20.5);
        }
        self::assertTrue(self::only($actions, ReloadFinished::class)[0]->succeeded);
    }

    public function testOnlyOneReloadAtATime(): void
    {
        $this->boot(new SupervisorConfig(workers: 1));
        $this->master->ready($this->pids()[0], 0.0);
        $this->act($this->master->reload(1.0));
        $actions = $this->master->reload(1.1);
        // The refusal is for the asker only: the reload in progress has not finished.
        self::assertSame([], self::only($actions, ReloadFinished::class));
        self::assertSame('cannot reload while reloading', self::only($actions, ReloadRefused::class)[0]->error);
        self::assertSame('Reload refused: cannot reload while reloading', self::only($actions, LogLine::class)[0]->message);
        self::assertSame(MasterPhase::Reloading, $this->master->phase());

        $actions = $this->master->ready(\max($this->pids(2)), 1.5);
        self::assertTrue(self::only($actions, ReloadFinished::class)[0]->succeeded);
    }

    public function testStopDrainsEveryWorkerAndExitsZeroWhenAllAreGone(): void
    {
        $this->boot(new SupervisorConfig(workers: 2, drainTimeout: 30.0));
        [$a, $b] = $this->pids();
        $this->master->ready($a, 0.0);
        $this->master->ready($b, 0.0);

        $actions = $this->master->stop(5.0);
        self::assertSame([[$a, \SIGTERM], [$b, \SIGTERM]], self::signals($actions));
        self::assertSame([], $this->master->exited($a, new ExitStatus(0), 6.0));
        self::assertSame([], self::only($this->master->tick(6.0), SpawnWorker::class), 'no restarts while stopping');
        $exit = self::only($this->master->exited($b, new ExitStatus(0), 7.0), ExitMaster::class);
        self::assertSame(0, $exit[0]->code);
    }

    public function testASecondStopOrTheDrainTimeoutKills(): void
    {
        $this->boot(new SupervisorConfig(workers: 1, drainTimeout: 30.0));
        [$a] = $this->pids();
        $this->master->ready($a, 0.0);
        $this->master->stop(5.0);
        self::assertSame([[$a, \SIGKILL]], self::signals($this->master->stop(6.0)));
        self::assertSame([], self::signals($this->master->stop(7.0)));

        $this->boot(new SupervisorConfig(workers: 1, drainTimeout: 30.0));
        [$b] = $this->pids();
        $this->master->ready($b, 0.0);
        $this->master->stop(5.0);
        self::assertSame([], self::signals($this->master->tick(34.9)));
        self::assertSame([[$b, \SIGKILL]], self::signals($this->master->tick(35.0)));
    }

    public function testAStopDuringAReloadEndsTheReload(): void
    {
        $this->boot(new SupervisorConfig(workers: 1));
        $this->master->ready($this->pids()[0], 0.0);
        $this->act($this->master->reload(1.0));
        $actions = $this->master->stop(1.5);
        self::assertFalse(self::only($actions, ReloadFinished::class)[0]->succeeded);
        self::assertCount(2, self::signals($actions), 'both generations drain');
    }

    public function testStatusCarriesReportsPerWorker(): void
    {
        $this->boot(new SupervisorConfig(workers: 1));
        [$a] = $this->pids();
        $this->master->ready($a, 1.0);
        $this->master->message($a, new Report(42, 3, 7, 4_194_304, 4_194_304, 0.002), 2.0);
        $status = $this->master->status(3.0);
        self::assertSame('running', $status['phase']);
        self::assertSame(1, $status['generation']);
        self::assertSame(3.0, $status['uptime']);
        $worker = $status['workers'][0];
        self::assertSame([$a, 'ready', 42, 3, 7, 4_194_304, 0], [$worker['pid'], $worker['state'], $worker['requests'], $worker['inflight'], $worker['connections'], $worker['memory'], $worker['restarts']]);
    }

    public function testUnknownPidsAreIgnored(): void
    {
        $this->boot(new SupervisorConfig(workers: 1));
        self::assertSame([], $this->master->ready(1, 0.0));
        self::assertSame([], $this->master->message(1, new Ready(), 0.0));
        self::assertSame([], $this->master->message(1, new Retire(RetireReason::MaxRequests), 0.0));
        self::assertSame([], $this->master->exited(1, new ExitStatus(0), 0.0));
    }
}
