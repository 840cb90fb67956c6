<?php

declare(strict_types=1);

namespace Spindle\Server;

use Psr\Log\LoggerInterface;
use Spindle\Loop\ContextDriver;
use Spindle\Loop\Loop;
use Spindle\Metrics\Registry;
use Spindle\Server\Peers\NoPeers;
use Spindle\Server\Peers\PeerLink;
use Spindle\Server\SharedCache\SharedCache;
use Spindle\Server\SharedCache\Store;
use Spindle\Server\Tasks\TaskClient;

/**
 * The services one worker process shares between its requests, each behind an accessor of its
 * own type: the metrics registry, the ticks, the task workers' client, the shared cache, and what
 * the app's bridge keeps for the worker (Bridge\BridgeServices, held here as an object: Server
 * does not know the Bridge layer).
 *
 * The worker sets them up (its constructor; the master's shared cache and task pool are adopted
 * into them before the app boots) and hands them to what it builds: the app's factory gets them
 * with the options. The entry points that nobody hands anything (Spindle\metrics(), every(),
 * task(), a framework's service provider, a driver a framework makes by name) reach the same
 * object with current(): the loop's driver holds it, the one place Spindle keeps process state.
 *
 * Outside a worker (a script, a test, an artisan command) current() makes them on first use,
 * with their defaults: a registry nobody reads, ticks that log nowhere, no task workers (task()
 * runs in place) and a cache of this process only.
 */
final class WorkerServices
{
    private ?Ticks $ticks = null;
    private ?TaskClient $taskClient = null;
    private ?Store $sharedCache = null;
    private ?object $bridge = null;
    private ?PeerLink $peers = null;

    private function __construct(
        private readonly ContextDriver $driver,
        private readonly Registry $metrics,
        private ?LoggerInterface $logger,
    ) {
    }

    /**
     * The services set up on $driver, made and set up now if they are not yet. A worker calls it
     * with its logger (what the ticks log to, unless something made them before).
     */
    public static function of(ContextDriver $driver, ?LoggerInterface $logger = null): self
    {
        $services = $driver->workerServices();
        if ($services instanceof self) {
            $services->logger ??= $logger;

            return $services;
        }
        $services = new self($driver, new Registry(), $logger);
        $driver->provideWorkerServices($services);

        return $services;
    }

    /** This process's services: for the entry points that are handed nothing. */
    public static function current(): self
    {
        return self::of(Loop::driver());
    }

    /** The worker's metrics registry (Spindle\metrics(); the master sums it with --metrics). */
    public function metrics(): Registry
    {
        return $this->metrics;
    }

    /** The worker's ticks (Spindle\every()), made on first use. */
    public function ticks(): Ticks
    {
        return $this->ticks ??= new Ticks($this->driver, $this->metrics, $this->logger);
    }

    /** The worker drains: its ticks, if it has any, start no run any more. */
    public function stopTicks(): void
    {
        $this->ticks?->stop();
    }

    /** The task workers' client (Spindle\task()), or null without task workers: tasks then run in place. */
    public function taskClient(): ?TaskClient
    {
        return $this->taskClient;
    }

    /** Tasks go to the task workers over $client (Tasks\TaskPool::adopt()). */
    public function useTaskWorkers(TaskClient $client): void
    {
        $this->taskClient = $client;
    }

    /**
     * The cache the workers share (SharedCache::store()): the master's when the worker adopted it,
     * else, made on first use, one of this process only.
     */
    public function sharedCache(): Store
    {
        return $this->sharedCache ??= SharedCache::processStore();
    }

    /**
     * The worker's shared cache is $store (SharedCache::adopt(), before the app boots: whoever
     * asked for the cache before keeps the store it got).
     */
    public function useSharedCache(Store $store): void
    {
        $this->sharedCache = $store;
    }

    /** What the app's bridge keeps for the worker (Bridge\BridgeServices::of() reads it), or null before it made it. */
    public function bridge(): ?object
    {
        return $this->bridge;
    }

    /** Sets what the app's bridge keeps for the worker (Bridge\BridgeServices::of(), once). */
    public function provideBridge(object $services): void
    {
        $this->bridge = $services;
    }

    /**
     * The worker's link to the other workers (the master's relay under `spindle serve`, or a
     * link through Redis a Pusher server set up), over which WebSocket fan-out goes; none
     * outside a worker with siblings.
     */
    public function peers(): PeerLink
    {
        return $this->peers ??= new NoPeers();
    }

    /** The worker's link to the others is $peers (the worker's relay; PeerLinks::redis() without one). */
    public function usePeers(PeerLink $peers): void
    {
        $this->peers = $peers;
    }
}
