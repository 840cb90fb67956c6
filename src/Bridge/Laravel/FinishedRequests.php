<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Psr\Log\LoggerInterface;
use Revolt\EventLoop;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;

/**
 * Decides when an app instance lets go of its finished request (Reset\RequestResetter).
 *
 * Once an instance's request ended, the router and the URL generator still hold it. The next
 * request on the instance replaces it first thing, so a loaded worker, whose instances go from
 * one request to the next, never needs the reset: it cost about 3 µs a request (the rebind fires
 * every `request` rebinding callback), 2 % of a Laravel `/hello` (docs/benchmarks.md). It runs
 * instead:
 * - before an instance is lent to a task or a tick (TaskInstances), which no kernel rebinds for:
 *   they never see another request's route or URL;
 * - on every instance that stayed idle since its request ended, at most DELAY seconds after it
 *   ended: one timer for all of them, so the memory of a request (its input, a body stream's
 *   descriptor) is not held on a quiet worker.
 *
 * The instances are in a WeakMap: one the pool lets go meanwhile is not kept by it.
 */
final class FinishedRequests
{
    /** Seconds an idle instance may hold its finished request. */
    public const DELAY = 0.25;

    /** @var \WeakMap<AppInstance, true> instances back in the pool that hold their last request */
    private \WeakMap $held;
    private ?string $timer = null;
    private readonly TaskRunner $runner;

    public function __construct(
        private readonly ProcessGlobals $globals,
        private readonly LoggerInterface $logger,
        private readonly float $delay = self::DELAY,
    ) {
        $this->held = new \WeakMap();
        $this->runner = new TaskRunner(Loop::driver());
    }

    /** $instance's request ended and the instance went back to the pool, holding it. */
    public function ended(AppInstance $instance): void
    {
        $this->held[$instance] = true;
        $this->timer ??= EventLoop::unreference(EventLoop::delay($this->delay, $this->sweep(...)));
    }

    /**
     * $instance was lent again (its statics current): to a request, which replaces what it holds;
     * to a task ($forTask), for which it lets go of it now.
     */
    public function lent(AppInstance $instance, bool $forTask): void
    {
        if (!isset($this->held[$instance])) {
            return;
        }
        unset($this->held[$instance]);
        if ($forTask) {
            $instance->letRequestGo($this->logger);
        }
    }

    /** How many idle instances still hold their finished request. */
    public function held(): int
    {
        return \count($this->held);
    }

    private function sweep(): void
    {
        $this->timer = null;
        $instances = [];
        foreach ($this->held as $instance => $true) {
            $instances[] = $instance;
        }
        if ($instances === []) {
            return;
        }
        $this->held = new \WeakMap();
        // In a task of its own, as the app's code it runs (the rebinding callbacks) runs in
        // requests: whatever it changes of the process is dropped when it ends.
        $this->runner->run(new Context('letting go of finished requests'), function () use ($instances): void {
            foreach ($instances as $instance) {
                $this->globals->activate($instance->state);
                $instance->letRequestGo($this->logger);
            }
        });
    }
}
