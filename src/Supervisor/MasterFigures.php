<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * @internal What the master counts for `status` and its metrics (workers replaced by reason,
 * reloads that succeeded and failed, the last reload's error), and the status document it shows.
 */
final class MasterFigures
{
    public float $startedAt = 0.0;
    public ?string $lastReloadError = null;
    /** @var array<string, int> workers replaced, by reason (crash, timeout, boot-failure, exit, fatal-error, max-requests, max-memory, ttl) */
    private array $replaced = [];
    /** @var array{ok: int, failed: int} */
    private array $reloads = ['ok' => 0, 'failed' => 0];

    public function replaced(string $reason): void
    {
        $this->replaced[$reason] = ($this->replaced[$reason] ?? 0) + 1;
    }

    public function reloaded(): void
    {
        $this->lastReloadError = null;
        ++$this->reloads['ok'];
    }

    public function reloadFailed(string $error): void
    {
        $this->lastReloadError = $error;
        ++$this->reloads['failed'];
    }

    /** @return array<string, mixed> */
    public function status(float $now, MasterPhase $phase, int $generation, WorkerTable $workers, bool $ready): array
    {
        $list = [];
        foreach ($workers->all() as $worker) {
            $list[] = [
                'id' => $worker->id,
                'pid' => $worker->pid,
                'generation' => $worker->generation,
                'state' => $worker->state->value,
                'requests' => $worker->requests,
                'inflight' => $worker->inflight,
                'connections' => $worker->connections,
                'memory' => $worker->memory,
                'lag' => $worker->lag,
                'db_busy' => $worker->dbBusy,
                'db_idle' => $worker->dbIdle,
                'db_waiting' => $worker->dbWaiting,
                'websockets' => $worker->webSockets,
                'started_at' => $worker->startedAt,
                'uptime' => $now - $worker->startedAt,
                'restarts' => $workers->restarts($worker->slot),
            ];
        }

        return [
            'phase' => $phase->value,
            'generation' => $generation,
            'started_at' => $this->startedAt,
            'uptime' => $now - $this->startedAt,
            'last_reload_error' => $this->lastReloadError,
            'live' => true,
            'ready' => $ready,
            'ready_workers' => $workers->accepting(),
            'replaced' => $this->replaced,
            'reloads' => $this->reloads,
            'workers' => $list,
        ];
    }
}
