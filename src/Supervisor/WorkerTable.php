<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * @internal MasterState's roster of worker processes: each worker's record by id and, once it is
 * forked, by pid; the ids handed out; the restarts counted per slot (for `status`).
 */
final class WorkerTable
{
    private int $nextId = 1;
    /** @var array<int, WorkerRecord> by id */
    private array $byId = [];
    /** @var array<int, int> id by pid */
    private array $byPid = [];
    /** @var array<int, int> restarts by slot */
    private array $restarts = [];

    /** A new worker of $generation for $slot, not forked yet. */
    public function add(int $slot, int $generation, float $now): WorkerRecord
    {
        $id = $this->nextId++;

        return $this->byId[$id] = new WorkerRecord($id, $slot, $generation, $now);
    }

    /** Worker $id was forked as $pid (nothing if it is gone meanwhile). */
    public function forked(int $id, int $pid): void
    {
        $worker = $this->byId[$id] ?? null;
        if ($worker !== null) {
            $worker->pid = $pid;
            $this->byPid[$pid] = $id;
        }
    }

    public function byId(?int $id): ?WorkerRecord
    {
        return $id === null ? null : ($this->byId[$id] ?? null);
    }

    public function byPid(int $pid): ?WorkerRecord
    {
        return $this->byId($this->byPid[$pid] ?? null);
    }

    /** Takes the worker that was $pid off the table, and returns it (null if $pid is not one). */
    public function remove(int $pid): ?WorkerRecord
    {
        $id = $this->byPid[$pid] ?? null;
        if ($id === null) {
            return null;
        }
        unset($this->byPid[$pid]);
        $worker = $this->byId[$id] ?? null;
        unset($this->byId[$id]);

        return $worker;
    }

    /** @return array<int, WorkerRecord> by id, oldest first */
    public function all(): array
    {
        return $this->byId;
    }

    public function isEmpty(): bool
    {
        return $this->byId === [];
    }

    /** Whether $generation has workers and none of them is still booting. */
    public function allReady(int $generation): bool
    {
        $any = false;
        foreach ($this->byId as $worker) {
            if ($worker->generation !== $generation) {
                continue;
            }
            if ($worker->state === WorkerState::Booting) {
                return false;
            }
            $any = true;
        }

        return $any;
    }

    /** Workers that accept connections (a retiring one serves until its replacement does). */
    public function accepting(): int
    {
        $ready = 0;
        foreach ($this->byId as $worker) {
            if ($worker->state === WorkerState::Ready || $worker->state === WorkerState::Retiring) {
                ++$ready;
            }
        }

        return $ready;
    }

    /** @return list<int> */
    public function pids(): array
    {
        return \array_keys($this->byPid);
    }

    public function restarted(int $slot): void
    {
        $this->restarts[$slot] = ($this->restarts[$slot] ?? 0) + 1;
    }

    public function restarts(int $slot): int
    {
        return $this->restarts[$slot] ?? 0;
    }
}
