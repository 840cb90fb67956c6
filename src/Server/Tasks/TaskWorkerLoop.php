<?php

declare(strict_types=1);

namespace Spindle\Server\Tasks;

/**
 * @internal One task worker process: accepts a connection on the pool's socket, reads one task
 * (a callable and its arguments), runs it, writes back its result or its error, and takes the
 * next. It blocks while it computes: that is what it is for. While a task runs, $caller writes
 * its notes (TaskCaller) on the same connection, before the result. It ends when the process
 * that started the pool is gone.
 */
final class TaskWorkerLoop
{
    /** @param resource $listener */
    public function __construct(
        private readonly mixed $listener,
        private readonly int $masterPid,
        private readonly TaskCaller $caller = new TaskCaller(),
        /** The pool's generation file (TaskPool::renew()): when it changes, this worker ends between two tasks. */
        private readonly ?string $generationFile = null,
    ) {
    }

    public function run(): never
    {
        $generation = $this->generation();
        while (true) {
            $connection = @\stream_socket_accept($this->listener, 0.5);
            if ($connection !== false) {
                $this->serve($connection);
            } elseif (\posix_getppid() === 1 || !\posix_kill($this->masterPid, 0)) {
                exit(0);
            }
            if ($this->generation() !== $generation) {
                // A reload: the supervisor starts another, which loads the app's code afresh.
                exit(0);
            }
        }
    }

    private function generation(): ?string
    {
        if ($this->generationFile === null) {
            return null;
        }
        $generation = @\file_get_contents($this->generationFile);

        return \is_string($generation) ? $generation : null;
    }

    /** @param resource $connection */
    private function serve($connection): void
    {
        \stream_set_timeout($connection, 30);
        $frames = new Frames();
        $payloads = [];
        while ($payloads === []) {
            // Quiet: a reset connection is an ended one (and an app booted here turns warnings into exceptions).
            $bytes = @\fread($connection, 65536);
            if ($bytes === false || $bytes === '') {
                \fclose($connection);

                return;
            }
            try {
                $payloads = $frames->push($bytes);
            } catch (TaskFailed) {
                \fclose($connection);

                return;
            }
        }
        try {
            $task = \unserialize($payloads[0]);
            if (!\is_array($task) || !\is_callable($task[0] ?? null) || !\is_array($task[1] ?? null)) {
                throw new TaskFailed('The task worker received something that is not a task');
            }
            $this->caller->attach($connection);
            $reply = ['ok', ($task[0])(...$task[1])];
            $frame = Frames::encode($reply);
        } catch (\Throwable $e) {
            $frame = Frames::encode(['error', $e::class, $e->getMessage()]);
        } finally {
            $this->caller->attach(null);
        }
        Frames::write($connection, $frame);
        \fclose($connection);
    }
}
