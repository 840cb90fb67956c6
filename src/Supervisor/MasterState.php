<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Psr\Log\LogLevel;
use Spindle\Server\Channel\BootFailed;
use Spindle\Server\Channel\Exiting;
use Spindle\Server\Channel\Ready;
use Spindle\Server\Channel\Report;
use Spindle\Server\Channel\Retire;
use Spindle\Server\Channel\WorkerMessage;
use Spindle\Server\ExitCause;
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
 *
 * This class holds the phases and the transitions; its parts each keep one thing: WorkerTable
 * the workers (by id and pid) and their restart counts, RestartQueue the restarts waiting for
 * their back-off or a reload's outcome, RestartBackoff the back-off, WorkerChecks the time limits
 * (drain, heartbeat, TTL), MasterFigures the counters and the status document, WorkerEndLog the
 * wording of the lines logged when a worker ends.
 */
final class MasterState
{
    private MasterPhase $phase = MasterPhase::Starting;
    private int $generation = 1;
    private readonly WorkerTable $workers;
    private readonly RestartQueue $pending;
    private readonly RestartBackoff $backoff;
    private readonly MasterFigures $figures;
    private readonly WorkerChecks $checks;
    private float $stopDeadline = 0.0;
    private bool $forced = false;
    private int $exitCode = 0;

    public function __construct(private readonly SupervisorConfig $config)
    {
        $this->workers = new WorkerTable();
        $this->pending = new RestartQueue();
        $this->backoff = new RestartBackoff($config);
        $this->figures = new MasterFigures();
        $this->checks = new WorkerChecks($config);
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
        $this->figures->startedAt = $now;
        $actions = [];
        for ($slot = 1; $slot <= $this->config->workers; ++$slot) {
            $actions[] = $this->spawn($slot, $this->generation, $now);
        }

        return $actions;
    }

    /** The process layer forked the worker it was asked for. */
    public function spawned(int $id, int $pid): void
    {
        $this->workers->forked($id, $pid);
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
            $old = $this->workers->byId($worker->replaces);
            $worker->replaces = null;
            if ($old !== null && $old->state === WorkerState::Retiring) {
                $actions[] = $this->drain($old, $now);
                $actions[] = $this->log(LogLevel::INFO, \sprintf('Worker %d took over from worker %d (%s)', $pid, (int) $old->pid, $old->retireReason ?? 'recycled'));
            }
        }

        if ($this->phase === MasterPhase::Starting && $this->workers->allReady($this->generation)) {
            $this->phase = MasterPhase::Running;
            $actions[] = new Announce();
        } elseif ($this->phase === MasterPhase::Reloading && $this->workers->allReady($this->generation)) {
            foreach ($this->workers->all() as $other) {
                if ($other->generation < $this->generation && $other->state !== WorkerState::Draining) {
                    $actions[] = $this->drain($other, $now);
                }
            }
            $this->phase = MasterPhase::Running;
            $this->figures->reloaded();
            $actions[] = $this->log(LogLevel::INFO, \sprintf('Reloaded: generation %d is serving', $this->generation));
            $actions[] = new ReloadFinished(true, $this->generation);
        }

        return $actions;
    }

    /**
     * A message from worker $pid: any of them is also its heartbeat.
     *
     * @return list<Action>
     */
    public function message(int $pid, WorkerMessage $message, float $now): array
    {
        if ($message instanceof Ready) {
            return $this->ready($pid, $now);
        }
        $worker = $this->worker($pid);
        if ($worker === null) {
            return [];
        }
        $worker->lastHeartbeat = $now;
        if ($message instanceof Report) {
            $worker->requests = $message->requests;
            $worker->inflight = $message->inflight;
            $worker->connections = $message->connections;
            $worker->memory = $message->memory;
            $worker->lag = $message->lag;
            $worker->dbBusy = $message->dbBusy;
            $worker->dbIdle = $message->dbIdle;
            $worker->dbWaiting = $message->dbWaiting;
            $worker->webSockets = $message->webSockets;
        } elseif ($message instanceof Retire) {
            return $this->retire($worker, $message->reason->value, $now);
        } elseif ($message instanceof BootFailed) {
            $worker->bootError = $message->error;
        } elseif ($message instanceof Exiting) {
            $worker->requests = \max($worker->requests, $message->requests);
            $worker->inflight = $message->inflight;

            return $this->exiting($worker, $message->cause->value, $now);
        }

        return [];
    }

    /** @return list<Action> */
    public function exited(int $pid, ExitStatus $status, float $now): array
    {
        $worker = $this->workers->remove($pid);
        if ($worker === null) {
            return [];
        }
        if ($this->phase === MasterPhase::Stopping) {
            return $this->workers->isEmpty() ? [new ExitMaster($this->exitCode)] : [];
        }
        if ($worker->exitReason !== null) {
            // A request ended its process; its replacement was started when it said so.
            return [WorkerEndLog::afterRequestEnded($pid, $worker, $status)];
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
            $actions = $this->exiting($worker, ExitCause::Exit->value, $now);
            $actions[] = $this->log(LogLevel::INFO, \sprintf('Worker %d exited after a request ended it', $pid));

            return $actions;
        }

        // A worker that was serving died: replace it; with back-off if it had not served yet
        // (a crash loop right after boot), at once if it had.
        $delay = $worker->requests > 0 ? 0.0 : $this->backoff->crashed($now);
        // An old worker dying during a reload: the new generation fills its slot, or, should the
        // reload fail, the restart waiting here does (tick() holds it until then).
        $outgoing = $this->phase === MasterPhase::Reloading && $worker->generation < $this->generation;
        $actions = [WorkerEndLog::died($pid, $worker, $status, $outgoing, $delay)];
        if ($worker->state === WorkerState::Retiring || $worker->state === WorkerState::Draining) {
            return $actions;
        }
        $this->workers->restarted($worker->slot);
        $this->figures->replaced($worker->killed ? 'timeout' : 'crash');

        return [...$actions, ...$this->refill($worker, $now, $now + $delay, $outgoing)];
    }

    /** @return list<Action> */
    public function tick(float $now): array
    {
        $actions = [];
        if ($this->phase === MasterPhase::Stopping) {
            if (!$this->forced && $now >= $this->stopDeadline) {
                $this->forced = true;
                $actions[] = $this->log(LogLevel::WARNING, 'Drain timeout reached: killing the workers still running');
                foreach ($this->workers->all() as $worker) {
                    $actions[] = $this->kill($worker);
                }
            }

            return $actions;
        }

        // The outgoing generation's restarts wait for the reload's outcome.
        $held = $this->phase === MasterPhase::Reloading ? $this->generation - 1 : null;
        foreach ($this->pending->takeDue($now, $this->generation, $held) as $restart) {
            $old = $this->workers->byId($restart->replaces);
            $actions[] = $this->spawn($restart->slot, $this->generation, $now, $old?->state === WorkerState::Retiring ? $old : null);
        }

        foreach ($this->workers->all() as $worker) {
            \array_push($actions, ...match ($this->checks->overdue($worker, $now, $this->phase === MasterPhase::Running)) {
                Overdue::DrainTimeout => [
                    $this->log(LogLevel::WARNING, \sprintf('Worker %d did not finish draining in %.0f s: killing it', (int) $worker->pid, $this->config->drainTimeout)),
                    $this->kill($worker),
                ],
                Overdue::Heartbeat => [
                    $this->log(LogLevel::ERROR, \sprintf('Worker %d has not responded for %.1f s (a request is stuck without yielding): killing it', (int) $worker->pid, $now - $worker->lastHeartbeat)),
                    $this->kill($worker),
                ],
                Overdue::Ttl => $this->retire($worker, 'ttl', $now),
                null => [],
            });
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
                foreach ($this->workers->all() as $worker) {
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
        $this->pending->clear();
        $actions[] = $this->log(LogLevel::INFO, 'Stopping: draining workers');
        foreach ($this->workers->all() as $worker) {
            if ($worker->pid !== null) {
                $worker->state = WorkerState::Draining;
                $actions[] = new SignalWorker($worker->pid, \SIGTERM);
            }
        }
        if ($this->workers->isEmpty()) {
            $actions[] = new ExitMaster($this->exitCode);
        }

        return $actions;
    }

    /** @return array<string, mixed> */
    public function status(float $now): array
    {
        return $this->figures->status($now, $this->phase, $this->generation, $this->workers, $this->isReady());
    }

    /** Workers that accept connections (a retiring one serves until its replacement does). */
    public function readyWorkers(): int
    {
        return $this->workers->accepting();
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
        return $this->workers->pids();
    }

    /**
     * A request ended $worker's process (exit(), a fatal error): it accepts no more and finishes
     * its other requests, and its replacement starts now, without back-off (it served).
     *
     * @return list<Action>
     */
    private function exiting(WorkerRecord $worker, string $reason, float $now): array
    {
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
        $this->figures->replaced($reason);
        $this->workers->restarted($worker->slot);
        $outgoing = $this->phase === MasterPhase::Reloading && $worker->generation < $this->generation;
        $actions = [WorkerEndLog::requestEndedProcess($worker, $reason, $state, $outgoing)];

        return $state === WorkerState::Retiring ? $actions : [...$actions, ...$this->refill($worker, $now, $now, $outgoing)];
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
            $this->figures->reloadFailed($error);
            $actions[] = $this->log(LogLevel::ERROR, \sprintf('Reload failed, generation %d keeps serving: %s', $this->generation - 1, $error));
            foreach ($this->workers->all() as $other) {
                if ($other->generation === $this->generation && $other->pid !== null) {
                    $other->state = WorkerState::Draining;
                    $other->drainDeadline = $now + $this->config->drainTimeout;
                    $actions[] = new SignalWorker($other->pid, \SIGTERM);
                }
            }
            // Restarts for the failed generation go; those of the serving one are due again.
            $this->pending->dropGeneration($this->generation);
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
        $this->figures->replaced('boot-failure');
        $this->workers->restarted($worker->slot);
        // A replacement for a retiring worker is tried again: that worker serves on meanwhile
        // (it asks to be replaced only once).
        $old = $this->workers->byId($worker->replaces);
        $replaces = $old?->state === WorkerState::Retiring ? $old->id : null;
        $this->pending->add(new PendingRestart($worker->slot, $now + $delay, $worker->generation, $replaces));

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
        $this->figures->replaced($reason);

        return [
            $this->log(LogLevel::INFO, \sprintf('Recycling worker %d (%s): starting its replacement', (int) $worker->pid, $reason)),
            $this->spawn($worker->slot, $this->generation, $now, $worker),
        ];
    }

    /**
     * Fills the slot of $worker, which is gone or going: a new worker now, or a restart that waits
     * until $at, or (for the generation a reload replaces, $outgoing) until the reload's outcome:
     * the new generation fills the slot, or, should the reload fail, this restart does.
     *
     * @return list<SpawnWorker>
     */
    private function refill(WorkerRecord $worker, float $now, float $at, bool $outgoing): array
    {
        if ($at <= $now && !$outgoing) {
            return [$this->spawn($worker->slot, $this->generation, $now)];
        }
        $this->pending->add(new PendingRestart($worker->slot, $at, $worker->generation));

        return [];
    }

    /** A new worker for $slot; with $replaces, it takes over from that retiring worker once it accepts. */
    private function spawn(int $slot, int $generation, float $now, ?WorkerRecord $replaces = null): SpawnWorker
    {
        $worker = $this->workers->add($slot, $generation, $now);
        $worker->replaces = $replaces?->id;

        return new SpawnWorker($worker->id, $generation);
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
        return $this->workers->byPid($pid);
    }

    private function log(string $level, string $message): LogLine
    {
        return new LogLine($level, $message);
    }
}
