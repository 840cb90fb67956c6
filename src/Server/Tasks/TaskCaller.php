<?php

declare(strict_types=1);

namespace Spindle\Server\Tasks;

/**
 * A task worker's way back to the HTTP worker that sent the task it runs: while a task runs,
 * note() writes a message on that task's connection, ahead of its result, and the HTTP worker
 * hands it to what it registered for the topic (TaskClient::onNote()) at once, while the task
 * goes on. Between tasks there is nobody to tell: note() then returns false.
 *
 * What uses it: a Laravel app's broadcasts in a task worker (Bridge\Pusher\TaskPublisher), which
 * the HTTP worker publishes to its Pusher subscribers and, through its peers, to every worker and host.
 */
final class TaskCaller
{
    /** @var resource|null the running task's connection */
    private mixed $connection = null;

    /** @internal TaskWorkerLoop: a task from $connection starts (null: it ended). */
    public function attach(mixed $connection): void
    {
        $this->connection = \is_resource($connection) ? $connection : null;
    }

    /** Whether a task runs now (a note would reach its caller). */
    public function isAttached(): bool
    {
        return $this->connection !== null;
    }

    /**
     * Sends $body under $topic to the task's caller; false when no task runs or its caller is
     * gone (it gave up waiting: the note is lost, as the task's result would be).
     *
     * @throws TaskFailed when the note is larger than a task message may be
     */
    public function note(string $topic, string $body): bool
    {
        if ($this->connection === null) {
            return false;
        }
        return Frames::write($this->connection, Frames::note($topic, $body));
    }
}
