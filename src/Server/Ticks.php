<?php

declare(strict_types=1);

namespace Spindle\Server;

use Psr\Log\LoggerInterface;
use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\ContextDriver;
use Spindle\Loop\TaskRunner;
use Spindle\Metrics\Registry;

/**
 * The ticks of one worker (Spindle\every(); the worker's are WorkerServices::ticks()): work that runs every N seconds in the worker, each
 * run a task of its own as a request is (its own fiber and Context, its own process-wide state,
 * dropped when it ends), so a run may wait on the database or HTTP while requests go on.
 *
 * A run still going when the next beat comes skips that beat: one tick never runs twice at once.
 * An error a run throws is logged; the tick goes on. When the worker begins its graceful stop,
 * no run starts any more; runs under way finish within the drain timeout. The loop timers are
 * unreferenced: ticks alone do not keep a worker alive.
 *
 * Metrics (the worker's registry, summed by the master with --metrics):
 * `spindle_tick_runs_total{tick,outcome}` (ok, error), `spindle_tick_skipped_total{tick}` and
 * `spindle_tick_duration_seconds{tick}`.
 */
final class Ticks
{
    /** @var array<int, Tick> by object id */
    private array $ticks = [];
    private bool $stopped = false;
    private int $unnamed = 0;
    private readonly TaskRunner $runner;
    /** @var \Closure(Tick): void */
    private readonly \Closure $task;

    public function __construct(
        ContextDriver $driver,
        private readonly Registry $metrics,
        private readonly ?LoggerInterface $logger = null,
    ) {
        $this->runner = new TaskRunner($driver, 4);
        $this->task = $this->run(...);
    }

    /**
     * Runs $work every $seconds (first after $seconds) until cancelled or the worker stops.
     *
     * @param \Closure(): mixed $work
     */
    public function every(float $seconds, \Closure $work, ?string $name = null): Tick
    {
        if (!\is_finite($seconds) || $seconds < 0.001) {
            throw new \InvalidArgumentException(\sprintf('A tick needs an interval of at least 0.001 s, got %s', \var_export($seconds, true)));
        }
        $tick = new Tick($name ?? 'tick-' . ++$this->unnamed, $seconds, $work, $this);
        if ($this->stopped) {
            return $tick;
        }
        $this->ticks[\spl_object_id($tick)] = $tick;
        $tick->timerId = EventLoop::unreference(EventLoop::repeat($seconds, fn () => $this->beat($tick)));

        return $tick;
    }

    public function cancel(Tick $tick): void
    {
        unset($this->ticks[\spl_object_id($tick)]);
        if ($tick->timerId !== null) {
            EventLoop::cancel($tick->timerId);
            $tick->timerId = null;
        }
    }

    /** The worker drains: no run starts any more (runs under way finish). */
    public function stop(): void
    {
        $this->stopped = true;
        foreach ($this->ticks as $tick) {
            $this->cancel($tick);
        }
    }

    /** @return list<Tick> */
    public function all(): array
    {
        return \array_values($this->ticks);
    }

    private function beat(Tick $tick): void
    {
        if ($this->stopped) {
            return;
        }
        if ($tick->running) {
            $tick->counted(false);
            $this->metrics->counter('spindle_tick_skipped_total', 'Beats of a tick skipped because its previous run was still going', ['tick'])->inc([$tick->name]);

            return;
        }
        $tick->running = true;
        $this->runner->run(new Context('tick ' . $tick->name), $this->task, $tick);
    }

    /** Runs in the tick's own fiber. */
    private function run(Tick $tick): void
    {
        $started = \hrtime(true);
        $outcome = 'ok';
        try {
            ($tick->work)();
        } catch (\Throwable $e) {
            $outcome = 'error';
            $message = \sprintf('Tick %s failed: %s', $tick->name, $e->getMessage());
            try {
                $this->logger === null ? \error_log($message) : $this->logger->error($message, ['exception' => $e]);
            } catch (\Throwable) {
                // A logger that fails must not stop the tick.
            }
        }
        $tick->running = false;
        $tick->counted(true);
        $this->metrics->counter('spindle_tick_runs_total', 'Runs of a tick, by outcome (ok, error)', ['tick', 'outcome'])->inc([$tick->name, $outcome]);
        $this->metrics->histogram('spindle_tick_duration_seconds', 'How long each run of a tick took', ['tick'])->observe((\hrtime(true) - $started) / 1e9, [$tick->name]);
    }
}
