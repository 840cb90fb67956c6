<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * Where a broadcaster hands its events: the worker's PusherServer (its subscribers, then every
 * worker and host), or, in a task worker, the HTTP worker that sent the task (TaskPublisher).
 */
interface Publisher
{
    /**
     * Sends $event with $data (its data as it travels: a JSON text) to the subscribers of
     * $channels, but the connection $exceptSocketId. Returns how many of this process's own
     * connections it went to.
     *
     * @param list<string> $channels
     */
    public function publish(PusherApp $app, array $channels, string $event, string $data, ?string $exceptSocketId = null): int;
}
