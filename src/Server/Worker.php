<?php

declare(strict_types=1);

namespace Spindle\Server;

use Psr\Log\LoggerInterface;
use Revolt\EventLoop;
use Spindle\Http\Clock;
use Spindle\Http\ConcurrencyLimit;
use Spindle\Http\ConnectionServices;
use Spindle\Http\ErrorResponses;
use Spindle\Http\Request;
use Spindle\Http\RequestHandler;
use Spindle\Http\StreamsRequestBody;
use Spindle\Http\RequestRunner;
use Spindle\Http\ResponseSerializer;
use Spindle\Http\StaticFiles\StaticFileHandler;
use Spindle\Http\WebSocket\WebSocketConnections;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Spindle\Server\Peers\MasterRelayLink;
use Spindle\Server\Peers\PeerLink;
use Spindle\Server\AccessLog\RequestIds;

/**
 * One worker process: boots the application once, then serves requests from it until told to
 * stop, each request in its own fiber.
 *
 * It keeps the master informed over its channel (see ChannelToMaster): a report every second,
 * which is also its heartbeat, and a request to be replaced once it served --max-requests
 * (plus its own jitter) or grew past --max-memory. It goes on serving until the master, its
 * replacement ready, sends SIGTERM; and it stops by itself if the master is gone.
 */
final class Worker
{
    private const REPORT_INTERVAL = 1.0;
    private const LAG_INTERVAL = 0.1;
    /** Descriptors a worker keeps for other than connections: listener, channel, logs, the app's. */
    private const DESCRIPTOR_RESERVE = 100;

    private ?HttpServer $server = null;
    /** Runs the requests of serve(): their counts are in the reports. */
    private ?RequestRunner $requests = null;
    private int $signals = 0;
    private bool $stopping = false;
    private ?ChannelToMaster $channel = null;
    private readonly WorkerStats $stats;
    /** Ask to be replaced after this many requests (0: never): --max-requests plus this worker's jitter. */
    private readonly int $requestLimit;
    /** Ask to be replaced past this many bytes (0: never): --max-memory. */
    private readonly int $memoryLimit;
    private ?RetireReason $retiring = null;
    /** What each request prints, for a request that calls exit() (supervised workers only). */
    private ?PrintedOutput $printed = null;
    /** hrtime (ns) when the lag timer last fired. */
    private int $lagTick = 0;
    private int $reportTick = 0;
    /** The app reads request bodies as they arrive (see wrap()). */
    private bool $streamsBodies = false;
    private ?string $lagTimer = null;
    private bool $lagPaused = false;
    /** @var list<string> loop callbacks to cancel when serve() returns */
    private array $watchers = [];
    private readonly Observability $observability;
    /** What the worker shares between its requests (metrics, ticks, task workers, shared cache): see WorkerServices. */
    private readonly WorkerServices $services;
    /** The worker's WebSocket connections: counts and limits, shared by its connections (ConnectionServices). */
    private readonly WebSocketConnections $webSockets;
    /** --max-connections, or less where the descriptor limit cannot be raised that far. */
    private readonly int $maxConnections;

    /**
     * @param bool $supervised run by the master: SIGINT is left to the master (a Ctrl-C at a
     *                         terminal reaches every process of the group, and the master
     *                         forwards it as SIGTERM), repeated SIGTERMs do not escalate (the
     *                         master forces a stop with SIGKILL)
     */
    public function __construct(
        private readonly ServerOptions $options,
        private readonly LoggerInterface $logger,
        private readonly bool $supervised = false,
        /** Boots the app boot() serves; null for a worker that only serves a handler given to wrap(). */
        private readonly ?ApplicationFactory $applications = null,
        /**
         * Where this worker writes uploaded files: the master gives each worker a directory of its
         * own, which it empties once the worker is gone. Null: --upload-dir or the system's.
         */
        private readonly ?string $uploadDirectory = null,
        /**
         * The worker's end of its relay to the other workers (the master's Supervisor\RelayHub):
         * the worker's PeerLink (Peers\MasterRelayLink). Null: a worker without siblings.
         */
        mixed $relay = null,
    ) {
        // The loop's driver is chosen before anything (the metrics registry, say) uses the loop.
        $this->maxConnections = $this->installLoop();
        $this->services = WorkerServices::of(Loop::driver(), $logger);
        if (\is_resource($relay)) {
            $this->services->usePeers(new MasterRelayLink($relay));
        }
        $proxies = $options->trustedProxies;
        $this->webSockets = new WebSocketConnections();
        $this->webSockets->limit(
            $options->wsMaxConnections,
            $options->wsMaxPerIp,
            $options->wsOpenTimeout,
            // Behind a trusted proxy (nginx) a client is its X-Forwarded-For, not the proxy.
            $proxies->isEmpty() ? null : static fn (Request $request): string => $proxies->clientAddress($request->remoteAddress, $request->headers['x-forwarded-for'] ?? null),
        );
        $this->stats = new WorkerStats();
        $this->observability = new Observability($options, $this->services->metrics(), $this->webSockets);
        $max = $options->maxRequests;
        // Drawn once per worker, so that workers started together do not all recycle together.
        $this->requestLimit = $max > 0 ? $max + \random_int(0, \intdiv($max, 10)) : 0;
        $this->memoryLimit = $options->maxMemory * 1048576;
    }

    /**
     * Installs the loop driver; with epoll, raises the descriptor limit toward the hard limit so
     * that the connection cap can be reached, and lowers the cap where it cannot.
     */
    private function installLoop(): int
    {
        Loop::install($this->options->eventLoop);
        $wanted = $this->options->maxConnections;
        $limit = Loop::raiseDescriptorLimit($wanted + self::DESCRIPTOR_RESERVE);
        if ($limit === null || $limit - self::DESCRIPTOR_RESERVE >= $wanted) {
            return $wanted;
        }
        $cap = \max(1, $limit - self::DESCRIPTOR_RESERVE);
        $this->logger->warning(\sprintf('--max-connections=%d is more than the descriptor limit (%d, ulimit -n) allows: this worker holds at most %d', $wanted, $limit, $cap));

        return $cap;
    }

    /**
     * What this worker shares between its requests; the master adopts its shared cache and task
     * pool into them before boot().
     */
    public function services(): WorkerServices
    {
        return $this->services;
    }

    /** The request count after which this worker asks to be replaced (0: never). */
    public function requestLimit(): int
    {
        return $this->requestLimit;
    }

    /** Boots the app. Throws if it cannot be loaded: nothing is listening yet. */
    public function boot(): RequestHandler
    {
        $driver = Loop::driver();
        $logger = $this->logger;
        $driver->watchBlocking($this->options->blockThreshold, static function (Context $context, float $seconds) use ($logger): void {
            $logger->warning(\sprintf('Request %s blocked the event loop for %.3f s', $context->label, $seconds));
        });
        EventLoop::setErrorHandler(static function (\Throwable $e) use ($logger): void {
            $logger->error('Unhandled error in an event loop callback: ' . $e->getMessage(), ['exception' => $e]);
        });

        $this->services->ticks();
        $this->enterWorkingDirectory();
        if ($this->applications === null) {
            throw new ServerError('This worker was made without an application factory: it can only serve a handler given to wrap()');
        }
        $app = $this->applications->create($this->options, $this->logger, $this->services);
        // What the boot set process-wide (time zone, error handlers, …) is where every request starts.
        $driver->isolation->rebase();

        return $this->wrap($app);
    }

    /**
     * Changes to the directory the app runs in (see AppPaths): for an app directory, public/,
     * as php-fpm runs public/index.php, so that relative paths in the app (an upload moved to
     * "uploads/") mean what they mean there. Once, before the app boots.
     */
    private function enterWorkingDirectory(): void
    {
        $directory = $this->options->workingDirectory;
        if ($directory === null || \getcwd() === $directory) {
            return;
        }
        if (!@\chdir($directory)) {
            throw new ServerError(\sprintf('Cannot change to the working directory %s', $directory));
        }
    }

    /**
     * $app behind the worker's middleware, as the options turn it on (RequestPath: request ids,
     * error responses, health endpoints, access log and metrics, static files): boot() does it,
     * and tests and embedders that bring their own RequestHandler call it before serve().
     */
    public function wrap(RequestHandler $app): RequestHandler
    {
        $options = $this->options;
        $this->streamsBodies = $app instanceof StreamsRequestBody;

        return RequestPath::build(
            $app,
            $options->accessLog !== null ? new RequestIds() : null,
            new ErrorResponses($this->logger, $options->debug),
            HealthEndpoints::of($options->healthPath, $options->readyPath, fn (): bool => $this->stopping),
            $this->observability->instrumentation(),
            $options->staticDir !== null ? new StaticFiles(new StaticFileHandler($options->staticDir)) : null,
        );
    }

    /** After each request: asks to be replaced past --max-requests or --max-memory. */
    private function afterRequest(): void
    {
        if ($this->requests?->requestCount() === $this->requestLimit) {
            $this->retire(RetireReason::MaxRequests);
        }
        if ($this->memoryLimit > 0 && \memory_get_usage(true) > $this->memoryLimit) {
            $this->retire(RetireReason::MaxMemory);
        }
    }

    /**
     * Serves $app on $listener until SIGTERM/SIGINT or the master's end of $channel closing
     * (graceful), or a second signal (immediate).
     *
     * @param resource $listener
     */
    public function serve(mixed $listener, RequestHandler $app, ChannelToMaster $channel): void
    {
        $options = $this->options;
        $clock = new Clock();
        $runner = $this->requests = new RequestRunner(
            $app,
            new TaskRunner(Loop::driver()),
            $this->logger,
            $clock,
            new ConcurrencyLimit($options->concurrency),
            $options->requestTimeout,
            $options->debug,
            $this->afterRequest(...),
            static fn (string $message): RequestTimedOut => new RequestTimedOut($message),
        );
        $set = new ConnectionServices(
            $runner,
            $options->limits,
            $this->logger,
            $clock,
            new ResponseSerializer(),
            $this->uploadDirectory ?? $options->uploadDir ?? \sys_get_temp_dir(),
            $options->debug,
            streamBodies: $this->streamsBodies,
            interimOverHttp1: $options->earlyHintsHttp1,
            webSockets: $this->webSockets,
        );
        $local = (string) \stream_socket_get_name($listener, false);
        $colon = (int) \strrpos($local, ':');
        $server = new HttpServer($listener, $set, \trim(\substr($local, 0, $colon), '[]'), (int) \substr($local, $colon + 1), $this->maxConnections, new Protocols($set, $options->tls));
        $this->server = $server;
        $server->start();

        if ($this->supervised) {
            \pcntl_signal(\SIGINT, \SIG_IGN);
        }
        foreach ($this->supervised ? [\SIGTERM] : [\SIGTERM, \SIGINT] as $signal) {
            $this->watchers[] = EventLoop::unreference(EventLoop::onSignal($signal, $this->onSignal(...)));
        }

        $this->channel = $channel;
        $channel->onClosed($this->masterGone(...));
        $this->lagTick = $this->reportTick = \hrtime(true);
        // The lag probe runs while requests are under way; report() starts it again when they are.
        $this->watchers[] = $this->lagTimer = EventLoop::unreference(EventLoop::repeat(self::LAG_INTERVAL, $this->measureLag(...)));
        // Fires while requests wait; only a request computing without pause holds it up.
        $this->watchers[] = EventLoop::unreference(EventLoop::repeat(self::REPORT_INTERVAL, $this->report(...)));
        $this->observability->start();
        $finish = function () use ($channel): void {
            foreach ($this->watchers as $id) {
                EventLoop::cancel($id);
            }
            $this->watchers = [];
            $this->observability->close($channel);
            $channel->detach();
        };
        $drain = $this->supervised ? $this->drainOnExit($runner, $channel, $finish) : null;
        $channel->ready();
        if ($this->retiring !== null) {
            $channel->retire($this->retiring);
        }
        try {
            EventLoop::run();
        } finally {
            // Not reached when a request ends the process: then $drain takes over.
            $drain?->disarm();
            $finish();
        }
    }

    /**
     * Makes a request's exit() or fatal error cost that request only (see ExitDrain): what each
     * request prints is recorded from now on, and a shutdown function is armed.
     *
     * @param \Closure(): void $finish
     */
    private function drainOnExit(RequestRunner $runner, ChannelToMaster $channel, \Closure $finish): ExitDrain
    {
        $printed = $this->printed = new PrintedOutput();
        $printed->start();
        // The recording buffer is part of the state every request starts from.
        Loop::driver()->isolation->rebase();
        $drain = new ExitDrain($runner, $printed, $channel, $this->logger, $this->options->debug, $this->stop(...), $finish, $this->observability->recordEnded(...));
        $drain->arm();

        return $drain;
    }

    /** Asks the master, once, to start a replacement; this worker serves on meanwhile. */
    private function retire(RetireReason $reason): void
    {
        if ($this->retiring !== null) {
            return;
        }
        $this->retiring = $reason;
        $this->logger->info(\sprintf('Worker asks to be replaced (%s) after %d requests', $reason->value, $this->requests?->requestCount() ?? 0));
        $this->channel?->retire($reason);
    }

    private function measureLag(): void
    {
        $now = \hrtime(true);
        $lag = ($now - $this->lagTick) / 1e9 - self::LAG_INTERVAL;
        $this->lagTick = $now;
        if (($this->requests?->runningCount() ?? 0) === 0 && $this->lagTimer !== null) {
            // Nothing runs that could hold the loop up: an idle worker is not woken ten times a
            // second for it (report() measures its own lateness meanwhile, and resumes the probe).
            EventLoop::disable($this->lagTimer);
            $this->lagPaused = true;
        }
        $this->observability->observeLag($lag);
        if ($lag > $this->stats->lag) {
            $this->stats->lag = $lag;
        }
    }

    private function report(): void
    {
        $this->printed?->reopen();
        $stats = $this->stats;
        // A stall that is still holding up the lag timer counts too, as does one that held up
        // this report (the lag probe may be paused).
        $now = \hrtime(true);
        $lag = \max($stats->lag, ($now - $this->reportTick) / 1e9 - self::REPORT_INTERVAL, 0.0);
        if (!$this->lagPaused) {
            $lag = \max($lag, ($now - $this->lagTick) / 1e9 - self::LAG_INTERVAL);
        } elseif (($this->requests?->runningCount() ?? 0) > 0 && $this->lagTimer !== null) {
            $this->lagPaused = false;
            $this->lagTick = $now;
            EventLoop::enable($this->lagTimer);
        }
        $this->reportTick = $now;
        $stats->lag = 0.0;
        [$dbBusy, $dbIdle, $dbWaiting] = $this->databaseFigures();
        $this->channel?->report(
            $this->requests?->requestCount() ?? 0,
            $this->requests?->inflightCount() ?? 0,
            $this->server?->connectionCount() ?? 0,
            \memory_get_usage(true),
            \memory_get_peak_usage(true),
            \round($lag, 6),
            $dbBusy,
            $dbIdle,
            $dbWaiting,
            $this->webSockets->open(),
        );
        if ($this->channel !== null) {
            $this->observability->report($this->channel);
        }
    }

    /**
     * The database sessions of the worker's pools (busy, idle) and the requests waiting for one,
     * as the pools report them to the worker's metrics (spindle_db_pool_sessions and
     * spindle_db_pool_waiting); zeros when the app has no pool.
     *
     * @return array{int, int, int}
     */
    private function databaseFigures(): array
    {
        $figures = [0, 0, 0];
        foreach ($this->services->metrics()->collectFrom('spindle_db_pool') as $family) {
            foreach ($family->samples as $labels => $value) {
                if ($family->name === 'spindle_db_pool_sessions') {
                    $figures[\str_ends_with((string) $labels, 'busy') ? 0 : 1] += (int) $value;
                } elseif ($family->name === 'spindle_db_pool_waiting') {
                    $figures[2] += (int) $value;
                }
            }
        }

        return $figures;
    }

    private function masterGone(): void
    {
        $this->logger->warning('The master process is gone: stopping');
        $this->stop();
    }

    private function onSignal(): void
    {
        $server = $this->server;
        if ($server === null) {
            return;
        }
        if (++$this->signals > 1) {
            if ($this->supervised) {
                return;
            }
            $this->logger->notice('Second stop signal: closing all connections now');
            $server->abort();
            // Requests still suspended (on a timer, say) must not keep the process alive.
            EventLoop::getDriver()->stop();

            return;
        }
        $this->stop();
    }

    /** Stops accepting; in-flight requests get the drain timeout to finish. */
    private function stop(): void
    {
        $server = $this->server;
        if ($server === null || $this->stopping) {
            return;
        }
        $this->stopping = true;
        $server->stop();
        $this->services->stopTicks();
        // The other workers (and hosts) drop this one's WebSocket subscriptions now.
        $this->services->peers()->close();
        $this->watchers[] = EventLoop::unreference(EventLoop::delay($this->options->drainTimeout, function () use ($server): void {
            $this->logger->warning(\sprintf('Drain timeout of %s s reached: closing the remaining connections', $this->options->drainTimeout));
            $server->abort();
            EventLoop::getDriver()->stop();
        }));
    }
}
