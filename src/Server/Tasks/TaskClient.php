<?php

declare(strict_types=1);

namespace Spindle\Server\Tasks;

use Revolt\EventLoop;
use Spindle\Metrics\Registry;

/**
 * An HTTP worker's side of the task workers: sends a task over a connection of its own to the
 * pool's socket and suspends the calling fiber (only it) until the result comes back.
 *
 * A task is a callable that can cross a process: a function's name ('password_hash'), a static
 * method ([Class::class, 'method'] or 'Class::method'), or an object (an invokable class's
 * instance, serialized as Laravel serializes a queued job's); a closure only with
 * laravel/serializable-closure installed. Its arguments and its result are serialized too.
 *
 * While the task runs, its worker may send notes ahead of the result (TaskCaller::note()): each
 * goes at once to the handler registered for its topic (onNote()), in the order they were sent.
 */
final class TaskClient
{
    /** @var array<string, \Closure(string): void> topic => handler */
    private array $notes = [];
    /** Notes that came for a topic without a handler, or whose handler threw. */
    public int $droppedNotes = 0;

    public function __construct(
        private readonly string $socketPath,
        private readonly ?Registry $metrics = null,
    ) {
    }

    /**
     * Notes on $topic from the tasks this worker sends go to $handle (called from the waiting
     * fiber, before the task's result comes back). One handler a topic: the last one set.
     *
     * @param \Closure(string): void $handle
     */
    public function onNote(string $topic, \Closure $handle): void
    {
        $this->notes[$topic] = $handle;
    }

    /**
     * @param array<mixed> $arguments
     *
     * @throws TaskFailed
     */
    public function run(callable $task, array $arguments): mixed
    {
        $started = \hrtime(true);
        $outcome = 'failed';
        $inFlight = $this->metrics?->gauge('spindle_tasks_in_flight', 'Tasks sent to the task workers whose result has not come back yet (queued or running)');
        $inFlight?->add(1);
        try {
            $result = $this->send($task, $arguments);
            $outcome = 'ok';

            return $result;
        } catch (TaskFailed $e) {
            $outcome = \str_starts_with($e->getMessage(), 'The task threw ') ? 'error' : 'failed';

            throw $e;
        } finally {
            $inFlight?->add(-1);
            $this->metrics?->counter('spindle_tasks_total', 'Tasks sent to the task workers, by outcome (ok, error: it threw, failed: it could not be sent or its worker died)', ['outcome'])->inc([$outcome]);
            $this->metrics?->histogram('spindle_task_duration_seconds', 'From sending a task to its result')->observe((\hrtime(true) - $started) / 1e9);
        }
    }

    /** @param array<mixed> $arguments */
    private function send(callable $task, array $arguments): mixed
    {
        $frame = Frames::encode([self::portable($task), $arguments]);
        $connection = @\stream_socket_client('unix://' . $this->socketPath, $errno, $error, 5.0);
        if ($connection === false) {
            throw new TaskFailed(\sprintf('Cannot reach the task workers at %s: %s', $this->socketPath, $error));
        }
        try {
            if (!Frames::write($connection, $frame)) {
                throw new TaskFailed('The task worker closed the connection before it had the task');
            }
            $reply = \unserialize($this->readReply($connection));
        } finally {
            \fclose($connection);
        }
        if (\is_array($reply) && ($reply[0] ?? null) === 'ok') {
            return $reply[1] ?? null;
        }
        if (\is_array($reply) && ($reply[0] ?? null) === 'error') {
            throw new TaskFailed(\sprintf('The task threw %s: %s', (string) ($reply[1] ?? '?'), (string) ($reply[2] ?? '')));
        }

        throw new TaskFailed('The task worker answered something that is not a result');
    }

    /**
     * The task's result frame, once it comes; its notes before it go to their handlers.
     *
     * @param resource $connection
     */
    private function readReply($connection): string
    {
        \stream_set_blocking($connection, false);
        $frames = new Frames();
        $suspension = EventLoop::getSuspension();
        $id = EventLoop::onReadable($connection, static fn () => $suspension->resume());
        try {
            while (true) {
                $suspension->suspend();
                $bytes = @\fread($connection, 65536);
                if ($bytes === false || ($bytes === '' && \feof($connection))) {
                    throw new TaskFailed('The task worker exited while it ran the task');
                }
                foreach ($frames->push($bytes) as $payload) {
                    if (!Frames::isNote($payload)) {
                        return $payload;
                    }
                    $this->note(\unserialize($payload, ['allowed_classes' => false]));
                }
                $suspension = EventLoop::getSuspension();
                EventLoop::cancel($id);
                $id = EventLoop::onReadable($connection, static fn () => $suspension->resume());
            }
        } finally {
            EventLoop::cancel($id);
        }
    }

    /** Hands a note (['note', topic, body]) to its topic's handler. */
    private function note(mixed $note): void
    {
        $handle = \is_array($note) && \is_string($note[1] ?? null) && \is_string($note[2] ?? null) ? ($this->notes[$note[1]] ?? null) : null;
        if ($handle === null) {
            ++$this->droppedNotes;

            return;
        }
        try {
            $handle($note[2]);
        } catch (\Throwable) {
            // The handler's failure is not the task's: its result still comes.
            ++$this->droppedNotes;
        }
    }

    /** The task as it can cross a process, or a TaskFailed saying why it cannot. */
    private static function portable(callable $task): mixed
    {
        if ($task instanceof \Closure) {
            $serializable = 'Laravel\SerializableClosure\SerializableClosure';
            if (!\class_exists($serializable)) {
                throw new TaskFailed('A closure cannot be sent to a task worker without laravel/serializable-closure: pass a function\'s name, a static method or an invokable object');
            }

            return new $serializable($task);
        }

        // A name, a static method, an object (serialized), or [$object, 'method'].
        return $task;
    }
}
