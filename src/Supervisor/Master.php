<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Psr\Log\LoggerInterface;
use Spindle\Metrics\MetricsServer;
use Spindle\Server\JitRestart;
use Spindle\Server\Listener;
use Spindle\Server\ChannelToMaster;
use Spindle\Server\Channel\MetricsReport;
use Spindle\Server\Channel\WorkerMessage;
use Spindle\Server\ServerError;
use Spindle\Server\ApplicationFactory;
use Spindle\Server\ServerOptions;
use Spindle\Server\SharedCache\SharedCache;
use Spindle\Server\Tasks\TaskCaller;
use Spindle\Server\Tasks\TaskPool;
use Spindle\Server\Worker;
use Spindle\Supervisor\Action\Action;
use Spindle\Supervisor\Action\Announce;
use Spindle\Supervisor\Action\ExitMaster;
use Spindle\Supervisor\Action\LogLine;
use Spindle\Supervisor\Action\ReloadFinished;
use Spindle\Supervisor\Action\ReloadRefused;
use Spindle\Supervisor\Action\SignalWorker;
use Spindle\Supervisor\Action\SpawnWorker;

/**
 * The master process: the thin layer that does what MasterState decides. It forks workers,
 * reads their channel messages, reaps them, relays signals, serves the control socket and
 * watches files in development. It never loads application code.
 *
 * The master opens the listening socket (so --port=0 resolves to one port) and keeps it for its
 * whole life; every worker of every generation inherits it and accepts from its one queue. A
 * worker that drains, is recycled or dies only closes its copy: connections waiting to be
 * accepted stay queued for the others. (With a listener per worker, joined by SO_REUSEPORT, the
 * kernel resets the connections queued on a listener when it closes: each reload or recycle
 * would lose a few.) The master closes its copy when it stops, so that new connections are
 * refused once the workers have closed theirs.
 */
final class Master
{
    private MasterState $state;
    /** The workers' channels (their messages, decoded). */
    private readonly WorkerChannels $channels;
    /** The relay between workers (what a Pusher broadcast on one worker sends to the others). */
    private readonly RelayHub $relay;
    private int $stopSignals = 0;
    private int $handledStops = 0;
    private int $reloadSignals = 0;
    private int $handledReloads = 0;
    private int $reopenSignals = 0;
    private int $handledReopens = 0;
    private ?MetricsServer $metrics = null;
    private readonly ?SystemdNotifier $systemd;
    private ?MetricsEndpoint $endpoint = null;
    private ?int $exitCode = null;
    private int $port = 0;
    /** @var resource|null */
    private mixed $listener = null;
    private int $spawnedGeneration = 1;
    private ?ControlServer $control = null;
    /** @var list<ControlRequest> reload requests waiting for the outcome */
    private array $pendingReloads = [];
    private ?FileWatcher $watcher = null;
    private ?string $pidFile = null;
    /** The cache shared by the workers, made before the first fork (see SharedCache). */
    private ?SharedCache $sharedCache = null;
    /** The task workers (--task-workers), started before the first fork (see TaskPool). */
    private ?TaskPool $tasks = null;
    private ?WorkerTempDirs $tempDirs = null;
    /** @var array<int, string> each worker's temporary directory, by pid */
    private array $workerDirs = [];

    /** @param resource $stdout */
    public function __construct(
        private readonly ServerOptions $options,
        private readonly LoggerInterface $logger,
        private readonly mixed $stdout,
        /** Boots the app in each worker (the composition root's Bridge\AppFactory). */
        private readonly ApplicationFactory $applications,
    ) {
        $this->systemd = SystemdNotifier::fromEnvironment();
        $this->channels = new WorkerChannels($logger);
        $this->relay = new RelayHub($logger);
    }

    public function run(): int
    {
        $this->sharedCache = SharedCache::prepare($this->logger);
        $advice = JitRestart::budgetAdvice();
        if ($advice !== null) {
            $this->logger->warning($advice);
        }
        // Each task worker prepares the app for its tasks in its own process (the master loads none).
        $this->tasks = TaskPool::start($this->options->taskWorkers, $this->logger, fn (TaskCaller $caller) => $this->applications->prepareTaskWorker($this->options, $this->logger, $caller));
        // The watcher's inotifywait inherits every descriptor open now: start it before the
        // listening and control sockets exist, or it would hold copies of them for its life.
        if ($this->options->watch) {
            $this->watcher = new FileWatcher($this->watchRoots());
        }
        try {
            $this->listener = Listener::listen($this->options->host, $this->options->port);
            $this->port = Listener::port($this->listener);
            $this->pidFile = $this->options->pidFile ?? PidFile::defaultPath($this->port);
            PidFile::write($this->pidFile, \getmypid() ?: 0);
            try {
                $this->control = new ControlServer(PidFile::socketPath($this->pidFile));
                if ($this->options->metrics !== null) {
                    try {
                        $this->metrics = new MetricsServer($this->options->metrics, fn (string $path): array => $this->endpoint?->respond($path, self::now())
                            ?? [503, 'text/plain; charset=utf-8', "starting\n"]);
                    } catch (\RuntimeException $e) {
                        throw new ServerError($e->getMessage(), 0, $e);
                    }
                    $this->logger->info(\sprintf('Metrics on http://%s/metrics', $this->metrics->address));
                }
                if ($this->watcher !== null) {
                    $reason = $this->watcher->fallbackReason();
                    $this->logger->info(\sprintf(
                        'Watching %s for changes (%s)',
                        \implode(', ', $this->watchRoots()),
                        $this->watcher->mode() . ($reason === null ? '' : ': ' . $reason),
                    ));
                }

                return $this->loop();
            } finally {
                $this->metrics?->close();
                $this->control?->close();
                PidFile::remove($this->pidFile, \getmypid() ?: 0);
            }
        } finally {
            $this->watcher?->close();
        }
    }

    private function loop(): int
    {
        \pcntl_async_signals(false);
        \pcntl_signal(\SIGTERM, fn () => ++$this->stopSignals, false);
        \pcntl_signal(\SIGINT, fn () => ++$this->stopSignals, false);
        \pcntl_signal(\SIGHUP, fn () => ++$this->reloadSignals, false);
        \pcntl_signal(\SIGUSR1, fn () => ++$this->reopenSignals, false);
        \pcntl_signal(\SIGCHLD, static fn () => null, false);

        $this->state = new MasterState(new SupervisorConfig(
            workers: $this->options->workers,
            ttl: $this->options->ttl,
            drainTimeout: $this->options->drainTimeout,
            heartbeatTimeout: $this->options->requestTimeout > 0 ? $this->options->requestTimeout + $this->options->killGrace : 0.0,
        ));
        if ($this->metrics !== null) {
            $this->endpoint = new MetricsEndpoint($this->state, $this->options->healthPath ?? '/healthz', $this->options->readyPath ?? '/readyz');
        }
        $this->tempDirs = new WorkerTempDirs($this->options->uploadDir ?? \sys_get_temp_dir());
        try {
            return $this->supervise();
        } finally {
            foreach ($this->workerDirs as $directory) {
                $this->tempDirs->sweep($directory);
            }
            $this->workerDirs = [];
        }
    }

    private function supervise(): int
    {
        $this->execute($this->state->start(self::now()));

        while ($this->exitCode === null) {
            \pcntl_signal_dispatch();
            while ($this->handledStops < $this->stopSignals) {
                ++$this->handledStops;
                $this->systemd?->notify('STOPPING=1');
                $this->execute($this->state->stop(self::now()));
            }
            while ($this->handledReloads < $this->reloadSignals) {
                ++$this->handledReloads;
                $this->execute($this->state->reload(self::now()));
                if ($this->state->phase() === MasterPhase::Reloading) {
                    $this->systemd?->notify('RELOADING=1');
                }
            }
            if ($this->handledReopens < $this->reopenSignals) {
                // Reopen the access log (logrotate): each worker does it for its own handle.
                $this->handledReopens = $this->reopenSignals;
                foreach ($this->state->pids() as $pid) {
                    @\posix_kill($pid, \SIGUSR1);
                }
            }
            $this->reap();
            if ($this->state->phase() === MasterPhase::Stopping && \is_resource($this->listener)) {
                // The workers close their copies as they drain: then new connections are refused.
                \fclose($this->listener);
                $this->listener = null;
            }
            if ($this->exitCode !== null) {
                break;
            }
            $this->wait(0.1);
            $this->execute($this->state->tick(self::now()));
        }
        foreach ($this->state->pids() as $pid) {
            \posix_kill($pid, \SIGKILL);
        }

        return $this->exitCode;
    }

    /** @param list<Action> $actions */
    private function execute(array $actions): void
    {
        foreach ($actions as $action) {
            if ($action instanceof SpawnWorker) {
                $this->spawn($action);
            } elseif ($action instanceof SignalWorker) {
                @\posix_kill($action->pid, $action->signal);
            } elseif ($action instanceof LogLine) {
                $this->logger->log($action->level, $action->message);
            } elseif ($action instanceof Announce) {
                @\fwrite($this->stdout, \sprintf("Spindle listening on %s://%s\n", $this->options->scheme(), $this->options->address($this->port)));
                $this->systemd?->notify(\sprintf("READY=1\nMAINPID=%d\nSTATUS=Listening on http://%s", \getmypid(), $this->options->address($this->port)));
            } elseif ($action instanceof ReloadFinished) {
                $this->systemd?->notify('READY=1');
                foreach ($this->pendingReloads as $request) {
                    $this->control?->reply($request, $action->succeeded
                        ? ['ok' => true, 'generation' => $action->generation]
                        : ['ok' => false, 'error' => $action->error ?? 'reload failed']);
                }
                $this->pendingReloads = [];
            } elseif ($action instanceof ExitMaster) {
                $this->exitCode = $action->code;
            }
        }
    }

    private function spawn(SpawnWorker $action): void
    {
        if ($action->generation > $this->spawnedGeneration) {
            // New code is about to be loaded: make sure OPcache compiles it afresh.
            $this->spawnedGeneration = $action->generation;
            if (\function_exists('opcache_reset')) {
                \opcache_reset();
            }
            \clearstatcache(true);
            // The task workers' app too: each ends after its task, and its successor boots the new code.
            $this->tasks?->renew();
        }
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        if ($pair === false) {
            $this->logger->error('Cannot create a channel to a new worker');

            return;
        }
        $relay = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        if ($relay === false) {
            \fclose($pair[0]);
            \fclose($pair[1]);
            $this->logger->error('Cannot create a relay to a new worker');

            return;
        }
        $directory = $this->tempDirs?->create();
        if ($directory === null && $this->tempDirs !== null) {
            $this->logger->warning(\sprintf('Cannot create a temporary directory for a worker in %s: its uploads go there directly', $this->options->uploadDir ?? \sys_get_temp_dir()));
        }
        $pid = \pcntl_fork();
        if ($pid === -1) {
            $this->logger->error('Cannot fork a worker process');
            \fclose($pair[0]);
            \fclose($pair[1]);
            \fclose($relay[0]);
            \fclose($relay[1]);
            if ($directory !== null) {
                $this->tempDirs?->sweep($directory);
            }

            return;
        }
        if ($pid === 0) {
            \fclose($pair[0]);
            \fclose($relay[0]);
            exit($this->runWorker($pair[1], $relay[1], $directory));
        }
        \fclose($pair[1]);
        \fclose($relay[1]);
        $this->relay->add($pid, $relay[0]);
        if ($directory !== null) {
            $this->workerDirs[$pid] = $directory;
        }
        $this->channels->add($pid, $pair[0]);
        $this->state->spawned($action->id, $pid);
    }

    /**
     * Runs in the forked child: everything of the master's is let go first.
     *
     * @param resource $channel
     * @param resource $relay the worker's end of its relay to the other workers (RelayHub)
     * @param string|null $directory the worker's own temporary directory
     */
    private function runWorker(mixed $channel, mixed $relay, ?string $directory): int
    {
        foreach ([\SIGTERM, \SIGINT, \SIGHUP, \SIGCHLD] as $signal) {
            \pcntl_signal($signal, \SIG_DFL);
        }
        // Until the worker watches it (--access-log), SIGUSR1 from the master must not end it.
        \pcntl_signal(\SIGUSR1, \SIG_IGN);
        $this->channels->forgetAll();
        $this->relay->forgetAll();
        $this->workerDirs = [];
        // In a forked child these only close the inherited handles; the files stay the master's.
        $this->control?->close();
        $this->metrics?->close();
        $this->watcher?->close();
        $listener = $this->listener;
        $toMaster = new ChannelToMaster($channel);
        try {
            $worker = new Worker($this->options, $this->logger, supervised: true, applications: $this->applications, uploadDirectory: $directory, relay: $relay);
            $this->sharedCache?->adopt($worker->services());
            $this->tasks?->adopt($worker->services());
            $handler = $worker->boot();
            if (!\is_resource($listener)) {
                throw new ServerError('The listening socket is closed: the server is stopping');
            }
            // The master's socket, shared by every worker: see the class comment.
            $worker->serve($listener, $handler, $toMaster);
        } catch (\Throwable $e) {
            $this->logger->critical(\sprintf('Worker failed: %s', $e->getMessage()), ['exception' => $e]);
            $toMaster->bootFailed($e);

            return 70;
        }

        return 0;
    }

    private function reap(): void
    {
        while (($pid = \pcntl_waitpid(-1, $status, \WNOHANG)) > 0) {
            // Read what it said last (a boot error) before it is forgotten.
            $this->handle($pid, $this->channels->close($pid));
            $this->relay->remove($pid);
            $this->endpoint?->exited($pid);
            $this->execute($this->state->exited($pid, ExitStatus::fromWaitStatus($status), self::now()));
            $directory = $this->workerDirs[$pid] ?? null;
            if ($directory !== null && $this->tempDirs !== null) {
                unset($this->workerDirs[$pid]);
                $removed = $this->tempDirs->sweep($directory);
                if ($removed > 0) {
                    $this->logger->info(\sprintf('Removed %d temporary file%s worker %d left behind', $removed, $removed === 1 ? '' : 's', $pid));
                }
            }
        }
    }

    private function wait(float $timeout): void
    {
        $read = [...$this->channels->streams(), ...$this->relay->readStreams()];
        if ($this->control !== null) {
            \array_push($read, ...$this->control->streams());
        }
        $watch = $this->watcher?->stream();
        if ($watch !== null) {
            $read[] = $watch;
        }
        $write = $this->relay->writeStreams();
        if ($this->metrics !== null) {
            \array_push($read, ...$this->metrics->readStreams());
            \array_push($write, ...$this->metrics->writeStreams());
        }
        $write = $write ?: null;
        $except = null;
        if ($read === []) {
            \usleep((int) ($timeout * 1e6));

            return;
        }
        $ready = @\stream_select($read, $write, $except, 0, (int) ($timeout * 1e6));
        if ($ready === false || $ready === 0) {
            $read = [];
            $write = [];
        }
        $this->metrics?->poll($read, $write ?? [], self::now());
        $this->relay->poll($read, $write ?? []);
        foreach ($this->channels->readable($read) as $pid => $messages) {
            $this->handle($pid, $messages);
        }
        if ($this->control !== null) {
            foreach ($this->control->poll($read) as $request) {
                $this->control($request);
            }
        }
        if ($this->watcher !== null) {
            $changed = $this->watcher->changed();
            if ($changed !== []) {
                $this->logger->info(\sprintf('%s changed: reloading', \count($changed) === 1 ? $changed[0] : \count($changed) . ' files'));
                $this->execute($this->state->reload(self::now()));
            }
        }
    }

    /** @param list<WorkerMessage> $messages what worker $pid sent, in order */
    private function handle(int $pid, array $messages): void
    {
        foreach ($messages as $message) {
            if ($message instanceof MetricsReport) {
                $this->endpoint?->report($pid, $message->families);
            }
            $this->execute($this->state->message($pid, $message, self::now()));
        }
    }

    private function control(ControlRequest $request): void
    {
        \assert($this->control !== null);
        switch ($request->command) {
            case 'status':
                $now = self::now();
                $status = $this->state->status($now);
                // The state machine runs on a monotonic clock; show wall-clock times.
                $offset = \microtime(true) - $now;
                $status['started_at'] = \is_float($status['started_at']) ? $status['started_at'] + $offset : null;
                foreach ($status['workers'] as $i => $worker) {
                    $status['workers'][$i]['started_at'] = $worker['started_at'] + $offset;
                }
                $status['pid'] = \getmypid();
                $status['address'] = 'http://' . $this->options->address($this->port);
                $status['app'] = $this->options->app;
                $status['metrics'] = $this->metrics !== null ? 'http://' . $this->metrics->address . '/metrics' : null;
                $status['access_log'] = $this->options->accessLog;
                $this->control->reply($request, ['status' => $status]);
                break;
            case 'stop':
                $this->control->reply($request, []);
                ++$this->stopSignals;
                break;
            case 'reload':
                $actions = $this->state->reload(self::now());
                $refusal = \array_values(\array_filter($actions, static fn (Action $a): bool => $a instanceof ReloadRefused))[0] ?? null;
                if ($refusal instanceof ReloadRefused) {
                    $this->control->reply($request, ['ok' => false, 'error' => $refusal->error]);
                } else {
                    $this->pendingReloads[] = $request;
                }
                $this->execute($actions);
                break;
            default:
                $this->control->reply($request, ['ok' => false, 'error' => \sprintf('unknown command "%s"', $request->command)]);
        }
    }

    private static function now(): float
    {
        return \hrtime(true) / 1e9;
    }

    /**
     * What --watch watches: the directory of an app file; for a framework app directory its
     * code, configuration and templates (not vendor/, storage/ or var/, which change by themselves).
     *
     * @return list<string>
     */
    private function watchRoots(): array
    {
        $app = $this->options->app;
        if (!\is_dir($app)) {
            return [\dirname($app)];
        }
        $roots = [];
        foreach (['app', 'config', 'routes', 'resources', 'src', 'templates', 'database', 'public'] as $name) {
            if (\is_dir($app . '/' . $name)) {
                $roots[] = $app . '/' . $name;
            }
        }

        return $roots === [] ? [$app] : $roots;
    }
}
