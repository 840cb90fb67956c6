<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Server\Channel\Retire;
use Spindle\Server\RetireReason;
use Spindle\Supervisor\Action\SpawnWorker;
use Spindle\Supervisor\ExitStatus;
use Spindle\Supervisor\MasterState;
use Spindle\Supervisor\StatusMetrics;
use Spindle\Supervisor\SupervisorConfig;

/** Readiness and the counters the master's metrics show: replacements by reason, reloads. */
final class MasterStateFiguresTest extends TestCase
{
    private MasterState $master;
    private int $nextPid = 500;

    /** @param list<\Spindle\Supervisor\Action\Action> $actions */
    private function act(array $actions): void
    {
        foreach ($actions as $action) {
            if ($action instanceof SpawnWorker) {
                $this->master->spawned($action->id, $this->nextPid++);
            }
        }
    }

    /** @return array<string, mixed> */
    private function status(): array
    {
        return $this->master->status(1.0);
    }

    public function testReadyFromTheReadinessLineUntilAStopBegins(): void
    {
        $this->master = new MasterState(new SupervisorConfig(workers: 2, heartbeatTimeout: 10.0));
        $this->act($this->master->start(0.0));
        self::assertFalse($this->master->isReady(), 'nothing accepts yet');
        $this->act($this->master->ready(500, 0.1));
        self::assertFalse($this->master->isReady(), 'ready as the readiness line: once every worker accepts');
        $this->act($this->master->ready(501, 0.1));
        self::assertTrue($this->master->isReady());
        self::assertSame(2, $this->status()['ready_workers']);

        $this->act($this->master->reload(1.0));
        self::assertTrue($this->master->isReady(), 'the old generation serves during a reload');
        $this->act($this->master->ready(502, 1.1));
        $this->act($this->master->ready(503, 1.1));
        self::assertSame(['ok' => 1, 'failed' => 0], $this->status()['reloads']);

        // A crash, a worker that stops answering, a recycle.
        $this->act($this->master->exited(502, ExitStatus::fromWaitStatus(9), 2.0));
        $this->act($this->master->ready(504, 2.1));
        $this->act($this->master->message(504, new Retire(RetireReason::MaxRequests), 2.2));
        $this->act($this->master->tick(30.0));
        $this->act($this->master->exited(503, ExitStatus::fromWaitStatus(9), 30.1));
        $replaced = $this->status()['replaced'];
        self::assertIsArray($replaced);
        self::assertSame(1, $replaced['crash'] ?? null);
        self::assertSame(1, $replaced['max-requests'] ?? null);
        self::assertArrayHasKey('timeout', $replaced, 'the silent worker was killed: ' . \json_encode($this->status()));

        $this->act($this->master->stop(31.0));
        self::assertFalse($this->master->isReady(), 'not ready from the moment the stop begins');
        self::assertFalse($this->status()['ready']);

        $families = [];
        foreach (StatusMetrics::families($this->status()) as $family) {
            $families[$family->name] = $family->samples;
        }
        self::assertSame(['' => 0.0], $families['spindle_ready']);
        self::assertSame(1.0, $families['spindle_worker_restarts_total']['crash']);
        self::assertSame(1.0, $families['spindle_reloads_total']['ok']);
    }
}
