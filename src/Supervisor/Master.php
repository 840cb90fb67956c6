<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Psr\Log\LoggerInterface;
use Spindle\Server\Listener;
use Spindle\Server\ServerOptions;
use Spindle\Server\Worker;

/**
 * The master process: forks the workers, prints the readiness line once all of them accept
 * connections, restarts a worker that dies, and on SIGTERM/SIGINT stops them gracefully
 * (a second signal kills them).
 *
 * The port is reserved by the master first (so --port=0 resolves to one port for every
 * worker); each worker then opens its own SO_REUSEPORT listener on it, and the master lets go
 * of its socket before announcing the server.
 */
final class Master
{
    /** @var array<int, WorkerProcess> by pid */
    private array $workers = [];
    private int $stopSignals = 0;
    private bool $announced = false;

    /** @param resource $stdout */
    public function __construct(
        private readonly ServerOptions $options,
        private readonly LoggerInterface $logger,
        private readonly mixed $stdout,
    ) {
    }

    public function run(): int
    {
        $probe = Listener::listen($this->options->host, $this->options->port);
        $port = Listener::port($probe);

        \pcntl_async_signals(false);
        \pcntl_signal(\SIGTERM, fn () => ++$this->stopSignals, false);
        \pcntl_signal(\SIGINT, fn () => ++$this->stopSignals, false);
        \pcntl_signal(\SIGCHLD, static fn () => null, false);

        for ($i = 0; $i < $this->options->workers; ++$i) {
            $this->spawn($port, $probe);
        }

        $sentStop = 0;
        while (true) {
            \pcntl_signal_dispatch();
            if ($this->stopSignals > $sentStop) {
                $sentStop = $this->stopSignals;
                foreach ($this->workers as $pid => $worker) {
                    \posix_kill($pid, $sentStop > 1 ? \SIGKILL : \SIGTERM);
                }
            }
            $failed = $this->reap($port, $probe, $sentStop > 0);
            if ($failed !== null) {
                $this->stopAll();

                return $failed;
            }
            if ($this->workers === []) {
                return 0;
            }
            $this->readMessages();
            if (!$this->announced && $this->allReady()) {
                $this->announced = true;
                @\fclose($probe);
                \fwrite($this->stdout, \sprintf("Spindle listening on http://%s\n", $this->options->address($port)));
            }
        }
    }

    /** @param resource $probe */
    private function spawn(int $port, mixed $probe): void
    {
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        if ($pair === false) {
            throw new \RuntimeException('Cannot create a pipe to a worker');
        }
        $pid = \pcntl_fork();
        if ($pid === -1) {
            throw new \RuntimeException('Cannot fork a worker process');
        }
        if ($pid === 0) {
            \fclose($pair[0]);
            exit($this->runWorker($port, $probe, $pair[1]));
        }
        \fclose($pair[1]);
        \stream_set_blocking($pair[0], false);
        $this->workers[$pid] = new WorkerProcess($pid, $pair[0]);
    }

    /**
     * Runs in the forked child.
     *
     * @param resource $probe
     * @param resource $channel
     */
    private function runWorker(int $port, mixed $probe, mixed $channel): int
    {
        foreach ([\SIGTERM, \SIGINT, \SIGCHLD] as $signal) {
            \pcntl_signal($signal, \SIG_DFL);
        }
        try {
            $worker = new Worker($this->options, $this->logger);
            $handler = $worker->boot();
            $listener = Listener::listen($this->options->host, $port);
            if (\is_resource($probe)) {
                \fclose($probe);
            }
            $worker->serve($listener, $handler, static function () use ($channel): void {
                \fwrite($channel, "ready\n");
            });
        } catch (\Throwable $e) {
            $this->logger->critical(\sprintf('Worker failed: %s', $e->getMessage()), ['exception' => $e]);

            return 70;
        }

        return 0;
    }

    /**
     * Collects exited workers. Returns an exit code when the server must stop.
     *
     * @param resource $probe
     */
    private function reap(int $port, mixed $probe, bool $stopping): ?int
    {
        while (($pid = \pcntl_waitpid(-1, $status, \WNOHANG)) > 0) {
            $worker = $this->workers[$pid] ?? null;
            if ($worker === null) {
                continue;
            }
            unset($this->workers[$pid]);
            @\fclose($worker->channel);
            if ($stopping) {
                continue;
            }
            $how = \pcntl_wifsignaled($status)
                ? 'was killed by signal ' . \pcntl_wtermsig($status)
                : 'exited with status ' . \pcntl_wexitstatus($status);
            if (!$worker->ready) {
                $this->logger->critical(\sprintf('Worker %d %s before it was ready; stopping', $pid, $how));

                return 1;
            }
            $this->logger->error(\sprintf('Worker %d %s; starting a new one', $pid, $how));
            $this->spawn($port, $probe);
        }

        return null;
    }

    private function readMessages(): void
    {
        $read = [];
        foreach ($this->workers as $worker) {
            $read[] = $worker->channel;
        }
        $write = $except = null;
        if ($read === [] || @\stream_select($read, $write, $except, 0, 200000) < 1) {
            return;
        }
        foreach ($this->workers as $worker) {
            if (\in_array($worker->channel, $read, true)) {
                $data = @\fread($worker->channel, 4096);
                if (\is_string($data) && \str_contains($data, 'ready')) {
                    $worker->ready = true;
                }
            }
        }
    }

    private function allReady(): bool
    {
        foreach ($this->workers as $worker) {
            if (!$worker->ready) {
                return false;
            }
        }

        return $this->workers !== [];
    }

    private function stopAll(): void
    {
        foreach ($this->workers as $pid => $worker) {
            \posix_kill($pid, \SIGTERM);
        }
        $deadline = \microtime(true) + $this->options->drainTimeout;
        while ($this->workers !== [] && \microtime(true) < $deadline) {
            $pid = \pcntl_waitpid(-1, $status, \WNOHANG);
            if ($pid > 0) {
                unset($this->workers[$pid]);
            } else {
                \usleep(20000);
            }
        }
        foreach ($this->workers as $pid => $worker) {
            \posix_kill($pid, \SIGKILL);
            \pcntl_waitpid($pid, $status);
        }
        $this->workers = [];
    }
}
