<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\Overdue;
use Spindle\Supervisor\PendingRestart;
use Spindle\Supervisor\RestartQueue;
use Spindle\Supervisor\SupervisorConfig;
use Spindle\Supervisor\WorkerChecks;
use Spindle\Supervisor\WorkerState;
use Spindle\Supervisor\WorkerTable;

/** MasterState's parts on their own: the worker table, the restart queue, the time limits. */
final class MasterPartsTest extends TestCase
{
    public function testTheTableFindsWorkersByPidOnceForkedAndForgetsThemWhenRemoved(): void
    {
        $table = new WorkerTable();
        $a = $table->add(1, 1, 0.0);
        $b = $table->add(2, 1, 0.0);
        self::assertSame([1, 2], [$a->id, $b->id]);
        self::assertNull($table->byPid(100), 'not forked yet');

        $table->forked($a->id, 100);
        $table->forked($b->id, 101);
        $table->forked(99, 102);
        self::assertSame($a, $table->byPid(100));
        self::assertSame([100, 101], $table->pids(), 'an id that is gone gets no pid');
        self::assertFalse($table->allReady(1));
        self::assertSame(0, $table->accepting());

        $a->state = WorkerState::Ready;
        $b->state = WorkerState::Retiring;
        self::assertTrue($table->allReady(1));
        self::assertFalse($table->allReady(2), 'a generation without workers is not ready');
        self::assertSame(2, $table->accepting(), 'a retiring worker accepts until its replacement does');

        self::assertSame($a, $table->remove(100));
        self::assertNull($table->remove(100));
        self::assertSame([101], $table->pids());
        self::assertSame([$b->id => $b], $table->all());

        $table->restarted(2);
        $table->restarted(2);
        self::assertSame(2, $table->restarts(2));
        self::assertSame(0, $table->restarts(1));
    }

    public function testTheQueueHandsOutDueRestartsOfTheCurrentGenerationAndHoldsTheReloadedOnes(): void
    {
        $queue = new RestartQueue();
        $queue->add(new PendingRestart(1, 5.0, 2));
        $queue->add(new PendingRestart(2, 1.0, 2, 7));
        $queue->add(new PendingRestart(3, 1.0, 1));
        $queue->add(new PendingRestart(4, 1.0, 0));

        $due = $queue->takeDue(2.0, 2, 1);
        self::assertSame([[2, 7]], \array_map(static fn (PendingRestart $r): array => [$r->slot, $r->replaces], $due));
        self::assertSame([], $queue->takeDue(2.0, 2, 1), 'generation 1 is held, generation 0 dropped, slot 1 not due');

        self::assertSame([3], \array_map(static fn (PendingRestart $r): int => $r->slot, $queue->takeDue(2.0, 1, null)), 'the reload failed: generation 1 is current again');
        self::assertSame([], $queue->takeDue(9.0, 2, null), 'a generation no longer current is dropped');
    }

    public function testTheQueueDropsAFailedGenerationAndClears(): void
    {
        $queue = new RestartQueue();
        $queue->add(new PendingRestart(1, 0.0, 2));
        $queue->add(new PendingRestart(2, 0.0, 1));
        $queue->dropGeneration(2);
        self::assertSame([], $queue->takeDue(1.0, 2, 1));
        self::assertCount(1, $queue->takeDue(1.0, 1, null));

        $queue->add(new PendingRestart(1, 0.0, 1));
        $queue->clear();
        self::assertSame([], $queue->takeDue(1.0, 1, null));
    }

    public function testTheChecksFindEachTimeLimitPassed(): void
    {
        $checks = new WorkerChecks(new SupervisorConfig(ttl: 100.0, drainTimeout: 5.0, heartbeatTimeout: 10.0));
        $table = new WorkerTable();
        $worker = $table->add(1, 1, 0.0);
        $worker->state = WorkerState::Ready;
        $worker->readyAt = 0.0;
        $worker->lastHeartbeat = 0.0;

        self::assertNull($checks->overdue($worker, 9.0, true));
        self::assertSame(Overdue::Heartbeat, $checks->overdue($worker, 10.5, true));
        $worker->lastHeartbeat = 150.0;
        self::assertSame(Overdue::Ttl, $checks->overdue($worker, 150.0, true), 'past the TTL and its jitter (at most 10%)');
        self::assertNull($checks->overdue($worker, 150.0, false), 'no recycling during a reload or stop');

        $worker->state = WorkerState::Draining;
        $worker->drainDeadline = 155.0;
        self::assertNull($checks->overdue($worker, 154.0, true), 'a draining worker is not held to the heartbeat');
        self::assertSame(Overdue::DrainTimeout, $checks->overdue($worker, 155.0, true));
        $worker->killed = true;
        self::assertNull($checks->overdue($worker, 200.0, true), 'killed already');
    }
}
