<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Psr\Log\LoggerInterface;
use Psr\Log\NullLogger;
use Spindle\Bridge\Laravel\TaskInstances;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Peers\RedisPeerLink;
use Spindle\Bridge\Pusher\PusherServer;
use Spindle\Server\WorkerServices;

/**
 * What the app's bridge shares between the requests of one worker, each behind an accessor of its
 * own type: the database pools, the app instances of Laravel's Concurrency::run() tasks, the
 * Pusher server. It sits in the worker's services (Server\WorkerServices::bridge(): Server knows
 * no Bridge class), made there by of() on first use.
 *
 * A framework's boot gets the worker's services and reaches these with of(); what a framework
 * makes by name (a database connector, the Concurrency driver, the broadcaster), which nobody
 * hands anything, with current().
 */
final class BridgeServices
{
    private ?SessionPools $sessionPools = null;
    private ?TaskInstances $taskInstances = null;
    private ?PusherServer $pusherServer = null;
    /** @var array<string, RedisPeerLink> the worker's links through Redis, by channel */
    private array $redisPeers = [];

    private function __construct(private readonly WorkerServices $worker)
    {
    }

    /** The bridge's services of the worker's $services, made and set up there if they are not yet. */
    public static function of(WorkerServices $services): self
    {
        $bridge = $services->bridge();
        if ($bridge instanceof self) {
            return $bridge;
        }
        $bridge = new self($services);
        $services->provideBridge($bridge);

        return $bridge;
    }

    /** This process's: for what a framework makes by name (see the class comment). */
    public static function current(): self
    {
        return self::of(WorkerServices::current());
    }

    /**
     * The worker's database pools, made on first use from the environment (SPINDLE_DB_POOL, …)
     * with $logger (the framework's boot gives the worker's), their figures in the worker's metrics.
     */
    public function sessionPools(?LoggerInterface $logger = null): SessionPools
    {
        return $this->sessionPools ??= SessionPools::forWorker($logger ?? new NullLogger(), $this->worker->metrics());
    }

    /** The instances Laravel's Concurrency::run() tasks borrow, or null when no Laravel app booted in this worker. */
    public function taskInstances(): ?TaskInstances
    {
        return $this->taskInstances;
    }

    /** Concurrency::run()'s tasks borrow from $instances (the Laravel app's boot). */
    public function useTaskInstances(TaskInstances $instances): void
    {
        $this->taskInstances = $instances;
    }

    /**
     * The worker's Pusher server, made by $make on first use (by the routes in front of the app
     * or by the broadcaster, whichever comes first: every instance has the same config).
     *
     * @param \Closure(): PusherServer $make
     */
    public function pusherServer(\Closure $make): PusherServer
    {
        return $this->pusherServer ??= $make();
    }

    /**
     * The worker's link through Redis on $channel, made by $make on first use (one subscription
     * a worker and channel, however many Pusher servers ask for it).
     *
     * @param \Closure(): RedisPeerLink $make
     */
    public function redisPeers(string $channel, \Closure $make): RedisPeerLink
    {
        return $this->redisPeers[$channel] ??= $make();
    }
}
