<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Psr\Log\LogLevel;
use Spindle\Supervisor\Action\Action;
use Spindle\Supervisor\Action\Announce;
use Spindle\Supervisor\Action\ExitMaster;
use Spindle\Supervisor\Action\LogLine;
use Spindle\Supervisor\Action\ReloadFinished;
use Spindle\Supervisor\Action\ReloadRefused;
use Spindle\Supervisor\Action\SignalWorker;
use Spindle\Supervisor\Action\SpawnWorker;

/**
 * The master process as a state machine: it decides, the process layer acts. Every input is an
 * event with the current time (a worker forked, became ready, reported, exited; a reload or stop
 * was asked; time passed) and every output is a list of actions (fork, signal, announce, log,
 * exit). Nothing here forks, signals or reads a clock, so tests drive every transition directly.
 *
 * Capacity never drops on purpose: a recycled worker keeps serving until its replacement
 * accepts, and a reload keeps the old generation until the whole new one accepts.
 */
final class MasterState
{
    private MasterPhase $phase = MasterPhase::Starting;
    private int $generation = 1;
    private int $nextId = 1;
    /** @var array<int, WorkerRecord> by id */
    private array $workers = [];
    /** @var array<int, int> id by pid */
    private array $byPid = [];
    /**
     * Restarts waiting for their backoff, for the generation whose slot they fill (one that is
     * no longer current by then is dropped: a reload replaced it, or failed). With "replaces",
     * the new worker takes over from that (retiring) worker once it accepts.
     *
     * @var list<array{slot: int, at: float, generation: int, replaces: ?int}>
     */
    private array $pending = [];
    private readonly RestartBackoff $backoff;
    /** @var array<int, int> restarts by slot */
    private array $restarts = [];
    private float $stopDeadline = 0.0;
    private bool $forced = false;
    private int $exitCode = 0;
    private ?string $lastReloadError = null;
    private float $startedAt = 0.0;
    /** @var array<string, int> workers replaced, by reason (crash, timeout, boot-failure, exit, fatal-error, max-requests, max-memory, ttl) */
    private array $replaced = [];
    /** @var array{ok: int, failed: int} */
    private array $reloads = ['ok' => 0, 'failed' => 0];

    public function __construct(private readonly SupervisorConfig $config)
    {
        $this->backoff = new RestartBackoff($config);
    }

    public function phase(): MasterPhase
    {
        return $this->phase;
    }

    public function generation(): int
    {
        return $this->generation;
    }

    /** @return list<Action> */
    public function start(float $now): array
    {
        $this->startedAt = $now;
        $actions = [];
        for ($slot = 1; $slot <= $this->config->workers; ++$slot) {
            $actions[] = $this->spawn($slot, $this->generation, $now);
        }

        return $actions;
    }

    /** The process layer forked the worker it was asked for. */
    public function spawned(int $id, int $pid): void
    {
        $worker = $this->workers[$id] ?? null;
        if ($worker !== null) {
            $worker->pid = $pid;
            $this->byPid[$pid] = $id;
        }
    }

    /** @return list<Action> */
    public function ready(int $pid, float $now): array
    {
        $worker = $this->worker($pid);
        if ($worker === null || $worker->state !== WorkerState::Booting) {
            return [];
        }
        $worker->state = WorkerState::Ready;
        $worker->readyAt = $now;
        $worker->lastHeartbeat = $now;
        $actions = [];

        if ($worker->replaces !== null) {
            $old = $this->workers[$worker->replaces] ?? null;
            $worker->replaces = null;
            if ($old !== null && $old->state === WorkerState::Retiring) {
                $actions[] = $this->drain($old, $now);
                $actions[] = $this->log(LogLevel::INFO, \sprintf('Worker %d took over from worker %d (%s)', $pid, (int) $old->pid, $old->retireReason ?? 'recycled'));
            }
        }

        if ($this->phase === MasterPhase::Starting && $this->allReady($this->generation)) {
            $this->phase = MasterPhase::Running;
            $actions[] = new Announce();
        } elseif ($this->phase === MasterPhase::Reloading && $this->allReady($this->generation)) {
            foreach ($this->workers as $other) {
                if ($other->generation < $this->generation && $other->state !== WorkerState::Draining) {
                    $actions[] = $this->drain($other, $now);
                }
            }
            $this->phase = MasterPhase::Running;
            $this->lastReloadError = null;
            $actions[] = $this->log(LogLevel::INFO, \sprintf('Reloaded: generation %d is serving', $this->generation));
            ++$this->reloads['ok'];
            $actions[] = new ReloadFinished(true, $this->generation);
        }

        return $actions;
    }

    /**
     * A worker's periodic report (it doubles as its heartbeat), or its wish to be replaced.
     *
     * @param array<string, mixed> $message the decoded channel message
     *
     * @return list<Action>
     */
    public function message(int $pid, array $message, float $now): array
    {
        $worker = $this->worker($pid);
        if ($worker === null) {
            return [];
        }
        $worker->lastHeartbeat = $now;
        switch ($message['type'] ?? null) {
            case 'report':
                $worker->requests = self::int($message, 'requests');
                $worker->inflight = self::int($message, 'inflight');
                $worker->connections = self::int($message, 'connections');
                $worker->memory = self::int($message, 'memory');
                $worker->lag = \is_numeric($message['lag'] ?? null) ? (float) $message['lag'] : 0.0;

                return [];
            case 'retire':
                $reason = \is_string($message['reason'] ?? null) ? $message['reason'] : 'recycled';

                return $this->retire($worker, $reason, $now);
            case 'boot-error':
                $worker->bootError = \is_string($message['message'] ?? null) ? $message['message'] : 'unknown error';

                return [];
            case 'exiting':
                $worker->requests = \max($worker->requests, self::int($message, 'requests'));
                $worker->inflight = self::int($message, 'inflight');

                return $this->exiting($worker, $message['reason'] ?? null, $now);
            default:
                return [];
        }
    }

    /** @return list<Action> */
    public function exited(int $pid, ExitStatus $status, float $now): array
    {
        $id = $this->byPid[$pid] ?? null;
        if ($id === null) {
            return [];
        }
        unset($this->byPid[$pid]);
        $worker = $this->workers[$id];
        unset($this->workers[$id]);

        if ($this->phase === MasterPhase::Stopping) {
            return $this->workers === [] ? [new ExitMaster($this->exitCode)] : [];
        }
        if ($worker->exitReason !== null) {
            // A request ended its process; its replacement was started when it said so.
            $drained = !$worker->killed && $status->code === ExitStatus::REPLACE;

            return [$this->log($drained ? LogLevel::INFO : LogLevel::WARNING, \sprintf(
                'Worker %d %s after a request ended it (%s)',
                $pid,
                match (true) {
                    $drained => 'finished its other requests and exited',
                    $worker->killed => 'was killed: its other requests did not finish within the drain timeout',
                    default => \sprintf('%s before its other requests finished', $status->describe()),
                },
                $worker->exitReason,
            ))];
        }
        if ($worker->state === WorkerState::Draining && !$worker->killed) {
            return [$this->log(LogLevel::INFO, \sprintf('Worker %d (generation %d) drained and exited', $pid, $worker->generation))];
        }
        if ($worker->state === WorkerState::Booting) {
            return $this->bootFailed($worker, $status, $now);
        }
        if ($status->code === ExitStatus::REPLACE && !$worker->killed) {
            // Drained after a request ended it, though its word of it was lost: it served.
            $worker->requests = \max($worker->requests, 1);
            $actions = $this->exiting($worker, 'exit', $now);
            $actions[] = $this->log(LogLevel::INFO, \sprintf('Worker %d exited after a request ended it', $pid));

            return $actions;
        }

        // A worker that was serving died: replace it; with back-off if it had not served yet
        // (a crash loop right after boot), at once if it had.
        $delay = $worker->requests > 0 ? 0.0 : $this->backoff->crashed($now);
        // An old worker dying during a reload: the new generation fills its slot, or, should the
        // reload fail, the restart waiting here does (tick() holds it until then).
        $outgoing = $this->phase === MasterPhase::Reloading && $worker->generation < $this->generation;
        $actions = [$this->log(LogLevel::ERROR, \sprintf(
            'Worker %d %s%s; %s',
            $pid,
            $worker->killed ? 'did not respond and ' : '',
            $status->describe(),
            match (true) {
                $worker->state === WorkerState::Retiring => 'its replacement is already starting',
                $outgoing => 'the reload in progress replaces it',
                $delay > 0 => \sprintf('restarting it in %.1f s', $delay),
                default => 'restarting it',
            },
        ))];
        if ($worker->state === WorkerState::Retiring || $worker->state === WorkerState::Draining) {
            return $actions;
        }
        $this->restarts[$worker->slot] = ($this->restarts[$worker->slot] ?? 0) + 1;
        $this->count($worker->killed ? 'timeout' : 'crash');
        if ($delay > 0 || $outgoing) {
            $this->pending[] = ['slot' => $worker->slot, 'at' => $now + $delay, 'generation' => $worker->generation, 'replaces' => null];
        } else {
            $actions[] = $this->spawn($worker->slot, $this->generation, $now);
        }

        return $actions;
    }

    /** @return list<Action> */
    public function tick(float $now): array
    {
        $actions = [];
        if ($this->phase === MasterPhase::Stopping) {
            if (!$this->forced && $now >= $this->stopDeadline) {
                $this->forced = true;
                $actions[] = $this->log(LogLevel::WARNING, 'Drain timeout reached: killing the workers still running');
                foreach ($this->workers as $worker) {
                    $actions[] = $this->kill($worker);
                }
            }

            return $actions;
        }

        $waiting = [];
        foreach ($this->pending as $restart) {
            if ($restart['generation'] !== $this->generation) {
                // The outgoing generation's restarts wait for the reload's outcome.
                if ($this->phase === MasterPhase::Reloading && $restart['generation'] === $this->generation - 1) {
                    $waiting[] = $restart;
                }
                continue;
            }
            if ($restart['at'] > $now) {
                $waiting[] = $restart;
                continue;
            }
            $spawn = $this->spawn($restart['slot'], $this->generation, $now);
            $old = $restart['replaces'] !== null ? ($this->workers[$restart['replaces']] ?? null) : null;
            if ($old !== null && $old->state === WorkerState::Retiring) {
                $this->workers[$spawn->id]->replaces = $old->id;
            }
            $actions[] = $spawn;
        }
        $this->pending = $waiting;

        foreach ($this->workers as $worker) {
            if ($worker->killed) {
                continue;
            }
            if ($worker->state === WorkerState::Draining && $now >= $worker->drainDeadline) {
                $actions[] = $this->log(LogLevel::WARNING, \sprintf('Worker %d did not finish draining in %.0f s: killing it', (int) $worker->pid, $this->config->drainTimeout));
                $actions[] = $this->kill($worker);
                continue;
            }
            $serving = $worker->state === WorkerState::Ready || $worker->state === WorkerState::Retiring;
            if ($serving && $this->config->heartbeatTimeout > 0 && $now - $worker->lastHeartbeat > $this->config->heartbeatTimeout) {
                $actions[] = $this->log(LogLevel::ERROR, \sprintf(
                    'Worker %d has not responded for %.1f s (a request is stuck without yielding): killing it',
                    (int) $worker->pid,
                    $now - $worker->lastHeartbeat,
                ));
                $actions[] = $this->kill($worker);
                continue;
            }
            if ($worker->state === WorkerState::Ready && $this->phase === MasterPhase::Running && $this->config->ttl > 0
                && $now - $worker->readyAt >= $this->config->ttl + $this->ttlJitter($worker)) {
                \array_push($actions, ...$this->retire($worker, 'ttl', $now));
            }
        }

        return $actions;
    }

    /**
     * Boots a new generation next to the serving one; the old one drains once all of the new
     * one accepts. If a new worker fails to boot, the old generation keeps serving.
     *
     * @return list<Action>
     */
    public function reload(float $now): array
    {
        if ($this->phase !== MasterPhase::Running) {
            $error = \sprintf('cannot reload while %s', $this->phase->value);

            return [$this->log(LogLevel::NOTICE, 'Reload refused: ' . $error), new ReloadRefused($error)];
        }
        $this->phase = MasterPhase::Reloading;
        ++$this->generation;
        $actions = [$this->log(LogLevel::INFO, \sprintf('Reloading: starting generation %d', $this->generation))];
        for ($slot = 1; $slot <= $this->config->workers; ++$slot) {
            $actions[] = $this->spawn($slot, $this->generation, $now);
        }

        return $actions;
    }

    /**
     * First call: every worker drains, and the master exits once all are gone. A second call
     * (a second signal) kills them at once.
     *
     * @return list<Action>
     */
    public function stop(float $now): array
    {
        $actions = [];
        if ($this->phase === MasterPhase::Stopping) {
            if (!$this->forced) {
                $this->forced = true;
                $actions[] = $this->log(LogLevel::NOTICE, 'Stopping now: killing all workers');
                foreach ($this->workers as $worker) {
                    $actions[] = $this->kill($worker);
                }
            }

            return $actions;
        }
        if ($this->phase === MasterPhase::Reloading) {
            $actions[] = new ReloadFinished(false, $this->generation, 'the server is stopping');
        }
        $this->phase = MasterPhase::Stopping;
        $this->stopDeadline = $now + $this->config->drainTimeout;
        $this->pending = [];
        $actions[] = $this->log(LogLevel::INFO, 'Stopping: draining workers');
        foreach ($this->workers as $worker) {
            if ($worker->pid !== null) {
                $worker->state = WorkerState::Draining;
                $actions[] = new SignalWorker($worker->pid, \SIGTERM);
            }
        }
        if ($this->workers === []) {
            $actions[] = new ExitMaster($this->exitCode);
        }

        return $actions;
    }

    /** @return array<string, mixed> */
    public function status(float $now): array
    {
        $workers = [];
        foreach ($this->workers as $worker) {
            $workers[] = [
                'id' => $worker->id,
                'pid' => $worker->pid,
                'generation' => $worker->generation,
                'state' => $worker->state->value,
                'requests' => $worker->requests,
                'inflight' => $worker->inflight,
                'connections' => $worker->connections,
                'memory' => $worker->memory,
                'lag' => $worker->lag,
                'started_at' => $worker->startedAt,
                'uptime' => $now - $worker->startedAt,
                'restarts' => $this->restarts[$worker->slot] ?? 0,
            ];
        }

        $ready = $this->readyWorkers();

        return [
            'phase' => $this->phase->value,
            'generation' => $this->generation,
            'started_at' => $this->startedAt,
            'uptime' => $now - $this->startedAt,
            'last_reload_error' => $this->lastReloadError,
            'live' => true,
            'ready' => $this->isReady(),
            'ready_workers' => $ready,
            'replaced' => $this->replaced,
            'reloads' => $this->reloads,
            'workers' => $workers,
        ];
    }

    /** Workers that accept connections (a retiring one serves until its replacement does). */
    public function readyWorkers(): int
    {
        $ready = 0;
        foreach ($this->workers as $worker) {
            if ($worker->state === WorkerState::Ready || $worker->state === WorkerState::Retiring) {
                ++$ready;
            }
        }

        return $ready;
    }

    /**
     * Readiness, as a load balancer should see it: some worker accepts and no stop began (from
     * the first stop signal on, the answer is no while the workers drain).
     */
    public function isReady(): bool
    {
        return ($this->phase === MasterPhase::Running || $this->phase === MasterPhase::Reloading) && $this->readyWorkers() > 0;
    }

    /** @return list<int> pids of every worker (for a last-resort kill) */
    public function pids(): array
    {
        return \array_keys($this->byPid);
    }

    /**
     * A request ended $worker's process (exit(), a fatal error): it accepts no more and finishes
     * its other requests, and its replacement starts now, without back-off (it served).
     *
     * @return list<Action>
     */
    private function exiting(WorkerRecord $worker, mixed $reason, float $now): array
    {
        $reason = \in_array($reason, ['exit', 'fatal-error'], true) ? $reason : 'exit';
        if ($worker->exitReason !== null) {
            return [];
        }
        $worker->exitReason = $reason;
        $state = $worker->state;
        if ($this->phase === MasterPhase::Stopping || $state === WorkerState::Draining) {
            // Stopping, or on its way out already: nothing to replace. (One still booting in the
            // master's eyes accepted before its "ready" arrived: it served, as a ready one.)
            return [];
        }
        $worker->state = WorkerState::Draining;
        $worker->drainDeadline = $now + $this->config->drainTimeout;
        $this->count($reason);
        $this->restarts[$worker->slot] = ($this->restarts[$worker->slot] ?? 0) + 1;
        $outgoing = $this->phase === MasterPhase::Reloading && $worker->generation < $this->generation;
        $actions = [$this->log(LogLevel::WARNING, \sprintf(
            'Worker %d: a request ended its process (%s); it finishes its %d other request%s while %s',
            (int) $worker->pid,
            $reason === 'exit' ? 'exit()' : 'fatal error',
            $worker->inflight,
            $worker->inflight === 1 ? '' : 's',
            match (true) {
                $state === WorkerState::Retiring => 'its replacement, already starting, takes over',
                $outgoing => 'the reload in progress replaces it',
                default => 'its replacement starts',
            },
        ))];
        if ($state === WorkerState::Retiring) {
            return $actions;
        }
        if ($outgoing) {
            // Filled by the new generation, or by this restart should the reload fail.
            $this->pending[] = ['slot' => $worker->slot, 'at' => $now, 'generation' => $worker->generation, 'replaces' => null];
        } else {
            $actions[] = $this->spawn($worker->slot, $this->generation, $now);
        }

        return $actions;
    }

    /** @return list<Action> */
    private function bootFailed(WorkerRecord $worker, ExitStatus $status, float $now): array
    {
        $error = $worker->bootError ?? $status->describe();
        $actions = [];
        if ($this->phase === MasterPhase::Starting) {
            // Nothing serves yet: retrying would only delay the error the user must see.
            $this->exitCode = 1;
            $actions[] = $this->log(LogLevel::CRITICAL, \sprintf('Worker %d failed to boot: %s', (int) $worker->pid, $error));

            return \array_merge($actions, $this->stopAfterFailure($now));
        }
        if ($this->phase === MasterPhase::Reloading && $worker->generation === $this->generation) {
            // The new code does not boot: keep the generation that serves.
            $this->lastReloadError = $error;
            ++$this->reloads['failed'];
            $actions[] = $this->log(LogLevel::ERROR, \sprintf('Reload failed, generation %d keeps serving: %s', $this->generation - 1, $error));
            foreach ($this->workers as $other) {
                if ($other->generation === $this->generation && $other->pid !== null) {
                    $other->state = WorkerState::Draining;
                    $other->drainDeadline = $now + $this->config->drainTimeout;
                    $actions[] = new SignalWorker($other->pid, \SIGTERM);
                }
            }
            // Restarts for the failed generation go; those of the serving one are due again.
            $this->pending = \array_values(\array_filter($this->pending, fn (array $restart): bool => $restart['generation'] !== $this->generation));
            --$this->generation;
            $this->phase = MasterPhase::Running;
            $actions[] = new ReloadFinished(false, $this->generation + 1, $error);

            return $actions;
        }

        $delay = $this->backoff->bootFailed($now);
        if ($delay === null) {
            $this->exitCode = 1;
            $actions[] = $this->log(LogLevel::CRITICAL, \sprintf('Workers failed to boot %d times in %.0f s, giving up: %s', $this->backoff->bootFailures(), $this->config->crashWindow, $error));

            return \array_merge($actions, $this->stopAfterFailure($now));
        }
        $actions[] = $this->log(LogLevel::ERROR, \sprintf('Worker %d failed to boot: %s; retrying in %.1f s', (int) $worker->pid, $error, $delay));
        $this->count('boot-failure');
        $this->restarts[$worker->slot] = ($this->restarts[$worker->slot] ?? 0) + 1;
        // A replacement for a retiring worker is tried again: that worker serves on meanwhile
        // (it asks to be replaced only once).
        $old = $worker->replaces !== null ? ($this->workers[$worker->replaces] ?? null) : null;
        $this->pending[] = [
            'slot' => $worker->slot,
            'at' => $now + $delay,
            'generation' => $worker->generation,
            'replaces' => $old !== null && $old->state === WorkerState::Retiring ? $old->id : null,
        ];

        return $actions;
    }

    /** @return list<Action> */
    private function stopAfterFailure(float $now): array
    {
        $actions = $this->stop($now);

        return \array_values(\array_filter($actions, static fn (Action $a): bool => !$a instanceof LogLine || $a->level !== LogLevel::INFO));
    }

    /** @return list<Action> */
    private function retire(WorkerRecord $worker, string $reason, float $now): array
    {
        if ($worker->state !== WorkerState::Ready || $this->phase !== MasterPhase::Running) {
            return [];
        }
        $worker->state = WorkerState::Retiring;
        $worker->retireReason = $reason;
        $this->count($reason);
        $spawn = $this->spawn($worker->slot, $this->generation, $now);
        $this->workers[$spawn->id]->replaces = $worker->id;

        return [
            $this->log(LogLevel::INFO, \sprintf('Recycling worker %d (%s): starting its replacement', (int) $worker->pid, $reason)),
            $spawn,
        ];
    }

    private function spawn(int $slot, int $generation, float $now): SpawnWorker
    {
        $id = $this->nextId++;
        $this->workers[$id] = new WorkerRecord($id, $slot, $generation, $now);

        return new SpawnWorker($id, $generation);
    }

    private function drain(WorkerRecord $worker, float $now): SignalWorker
    {
        $worker->state = WorkerState::Draining;
        $worker->drainDeadline = $now + $this->config->drainTimeout;

        return new SignalWorker((int) $worker->pid, \SIGTERM);
    }

    private function kill(WorkerRecord $worker): SignalWorker
    {
        $worker->killed = true;

        return new SignalWorker((int) $worker->pid, \SIGKILL);
    }

    private function worker(int $pid): ?WorkerRecord
    {
        $id = $this->byPid[$pid] ?? null;

        return $id === null ? null : ($this->workers[$id] ?? null);
    }

    private function allReady(int $generation): bool
    {
        $any = false;
        foreach ($this->workers as $worker) {
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

    /** Up to 10% of the TTL, fixed per worker, so workers started together do not all recycle together. */
    private function ttlJitter(WorkerRecord $worker): float
    {
        return $this->config->ttl * 0.1 * (($worker->id * 37) % 101) / 100;
    }

    /** @param array<string, mixed> $message */
    private static function int(array $message, string $key): int
    {
        return \is_int($message[$key] ?? null) ? $message[$key] : 0;
    }

    private function count(string $reason): void
    {
        $this->replaced[$reason] = ($this->replaced[$reason] ?? 0) + 1;
    }

    private function log(string $level, string $message): LogLine
    {
        return new LogLine($level, $message);
    }
}
