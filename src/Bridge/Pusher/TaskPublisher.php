<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

use Spindle\Server\Tasks\TaskCaller;

/**
 * The publisher of a task worker, which holds no Pusher connection and is no peer of the HTTP
 * workers: each broadcast goes back, as a TaskBroadcast note, to the HTTP worker that sent the
 * running task, which publishes it with its PusherServer (its subscribers, then every worker of
 * the host and, with Redis, every host) while the task goes on.
 */
final class TaskPublisher implements Publisher
{
    public function __construct(private readonly TaskCaller $caller)
    {
    }

    /** @throws \RuntimeException when no task runs (nobody to hand the broadcast to) or its caller is gone */
    public function publish(PusherApp $app, array $channels, string $event, string $data, ?string $exceptSocketId = null): int
    {
        if ($channels === []) {
            return 0;
        }
        if (!$this->caller->note(TaskBroadcast::TOPIC, (new TaskBroadcast($app->id, $channels, $event, $data, $exceptSocketId))->encode())) {
            throw new \RuntimeException($this->caller->isAttached()
                ? 'The HTTP worker that sent this task is gone (it stopped waiting for it): the broadcast reached nobody'
                : 'Broadcasting outside a task in a task worker: nobody to hand the broadcast to');
        }

        return 0;
    }
}
