<?php

declare(strict_types=1);

namespace Spindle\Server\Tasks;

use Psr\Log\LoggerInterface;
use Spindle\Server\WorkerServices;

/**
 * Task workers: processes that run CPU-heavy work (password hashing, say) for the HTTP
 * workers, so that it does not hold up the requests of a worker's event loop.
 *
 * The master calls start() before it forks its first HTTP worker: it opens a unix socket in a
 * private directory and forks a small supervisor, which forks SPINDLE_TASK_WORKERS task worker
 * processes that accept from that socket (TaskWorkerLoop) and starts a new one whenever one exits
 * (after 0.1 s, 1 s after one that lived less than a second). Task workers run at a lower CPU
 * priority (nice +10, SPINDLE_TASK_NICE). The supervisor and its task workers end once the
 * master is gone; the supervisor then removes the directory.
 *
 * HTTP workers adopt() the pool; Spindle\task() then sends each task over a connection of its
 * own (TaskClient) and suspends only the calling fiber until the result comes back.
 *
 * Each task worker, before its first task, runs $prepare with its TaskCaller (the master passes
 * ApplicationFactory::prepareTaskWorker(): a Laravel app boots there, as a queue worker boots it);
 * a worker the supervisor starts again prepares again. A reload renews them (renew()): each ends
 * after its running task, and the one started in its place boots the new code.
 */
final class TaskPool
{
    private function __construct(
        public readonly string $socketPath,
        public readonly int $workers,
    ) {
    }

    /** The file whose content names the pool's generation (renew()); beside the socket. */
    private static function generationFile(string $directory): string
    {
        return $directory . '/generation';
    }

    /**
     * In the master, when a reload starts a new generation of HTTP workers: each task worker
     * ends once its running task is done (or at once when idle), and the supervisor starts
     * another, which boots the app's new code. No task is cut short.
     */
    public function renew(): void
    {
        $file = self::generationFile(\dirname($this->socketPath));
        if (@\file_put_contents($file . '.new', \bin2hex(\random_bytes(8))) !== false) {
            @\rename($file . '.new', $file);
        }
    }

    /** How much nicer than the master task workers run, unless SPINDLE_TASK_NICE says otherwise. */
    public const DEFAULT_NICE = 10;

    /**
     * In the master: the pool of $workers task workers (null for none).
     *
     * @param (\Closure(TaskCaller): void)|null $prepare run in each task worker before its first task
     */
    public static function start(int $workers, LoggerInterface $logger, ?\Closure $prepare = null): ?self
    {
        if ($workers < 1) {
            return null;
        }
        $nice = self::nice();
        $directory = \sys_get_temp_dir() . '/spindle-tasks-' . \bin2hex(\random_bytes(8));
        if (!@\mkdir($directory, 0700)) {
            throw new \RuntimeException('Cannot create the task workers\' directory ' . $directory);
        }
        $path = $directory . '/tasks.sock';
        \file_put_contents(self::generationFile($directory), '0');
        // A long queue: tasks wait there for a free task worker, and a full one would make the
        // HTTP worker's connect() block its event loop.
        $context = \stream_context_create(['socket' => ['backlog' => 4096]]);
        $listener = @\stream_socket_server('unix://' . $path, $errno, $error, \STREAM_SERVER_BIND | \STREAM_SERVER_LISTEN, $context);
        if ($listener === false) {
            @\rmdir($directory);
            throw new \RuntimeException(\sprintf('Cannot listen on %s for the task workers: %s', $path, $error));
        }
        $master = (int) \getmypid();
        $pid = \pcntl_fork();
        if ($pid === -1) {
            throw new \RuntimeException('Cannot fork the task workers\' supervisor');
        }
        if ($pid === 0) {
            self::supervise($listener, $workers, $master, $directory, $logger, $nice, $prepare);
        }
        \fclose($listener);
        $logger->info(\sprintf('%d task worker(s) (supervisor pid %d, nice +%d)', $workers, $pid, $nice));

        return new self($path, $workers);
    }

    /** In an HTTP worker: Spindle\task() sends its tasks to this pool. */
    public function adopt(WorkerServices $services): void
    {
        $services->useTaskWorkers(new TaskClient($this->socketPath, $services->metrics()));
    }

    /**
     * SPINDLE_TASK_NICE (0 to 19, default 10): how much lower the task workers' CPU priority is
     * than the master's. When the CPU is short, the kernel then runs the HTTP workers first and
     * the hashing waits, rather than the requests behind it.
     */
    private static function nice(): int
    {
        $value = \getenv('SPINDLE_TASK_NICE');
        if ($value === false || $value === '') {
            return self::DEFAULT_NICE;
        }
        if (\preg_match('/^\s*(\d+)\s*$/', $value, $m) !== 1 || (int) $m[1] > 19) {
            throw new \InvalidArgumentException(\sprintf('SPINDLE_TASK_NICE must be a whole number from 0 to 19, got %s', $value));
        }

        return (int) $m[1];
    }

    /**
     * @param resource $listener
     * @param (\Closure(TaskCaller): void)|null $prepare
     */
    private static function supervise($listener, int $workers, int $master, string $directory, LoggerInterface $logger, int $nice, ?\Closure $prepare): never
    {
        // A Ctrl-C reaches the whole process group: task workers finish what the HTTP workers
        // wait for, and go with the master.
        \pcntl_signal(\SIGINT, \SIG_IGN);
        \pcntl_signal(\SIGHUP, \SIG_IGN);
        \pcntl_signal(\SIGUSR1, \SIG_IGN);
        \pcntl_signal(\SIGCHLD, \SIG_DFL);
        $running = [];
        $startAt = [];
        $slots = \range(0, $workers - 1);
        while (\posix_getppid() !== 1 && \posix_kill($master, 0)) {
            foreach ($slots as $slot) {
                if (!isset($running[$slot]) && ($startAt[$slot] ?? 0.0) <= \microtime(true)) {
                    $pid = \pcntl_fork();
                    if ($pid === 0) {
                        \pcntl_signal(\SIGTERM, \SIG_DFL);
                        // A caller that gave up (its request timed out) must not kill the task worker.
                        \pcntl_signal(\SIGPIPE, \SIG_IGN);
                        if ($nice > 0) {
                            @\proc_nice($nice);
                        }
                        $caller = new TaskCaller();
                        if ($prepare !== null) {
                            try {
                                $prepare($caller);
                            } catch (\Throwable $e) {
                                // Tasks still run, as they did before: without the app.
                                $logger->error(\sprintf('Task worker %d could not prepare the app (%s: %s); its tasks run without it', \getmypid() ?: 0, $e::class, $e->getMessage()), ['exception' => $e]);
                            }
                        }
                        (new TaskWorkerLoop($listener, $master, $caller, self::generationFile($directory)))->run();
                    }
                    if ($pid > 0) {
                        $running[$slot] = [$pid, \microtime(true)];
                    }
                }
            }
            while (($pid = \pcntl_waitpid(-1, $status, \WNOHANG)) > 0) {
                foreach ($running as $slot => [$worker, $since]) {
                    if ($worker === $pid) {
                        unset($running[$slot]);
                        $lived = \microtime(true) - $since;
                        $startAt[$slot] = \microtime(true) + ($lived < 1.0 ? 1.0 : 0.1);
                        if (\pcntl_wifexited($status) && \pcntl_wexitstatus($status) === 0) {
                            // A reload retired it (or a task called exit).
                            $logger->info(\sprintf('Task worker %d ended (status 0); starting another', $pid));
                        } else {
                            $logger->warning(\sprintf('Task worker %d exited (%s); starting another', $pid, \pcntl_wifsignaled($status) ? 'signal ' . \pcntl_wtermsig($status) : 'status ' . \pcntl_wexitstatus($status)));
                        }
                    }
                }
            }
            \usleep(50000);
        }
        foreach ($running as [$pid]) {
            \posix_kill($pid, \SIGTERM);
        }
        @\unlink($directory . '/tasks.sock');
        @\unlink(self::generationFile($directory));
        @\rmdir($directory);
        exit(0);
    }
}
