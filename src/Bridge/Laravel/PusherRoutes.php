<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Psr\Log\LoggerInterface;
use Spindle\Bridge\Laravel\Broadcasting\PusherConnections;
use Spindle\Bridge\Pusher\PusherEndpoints;
use Spindle\Bridge\Pusher\TaskBroadcast;
use Spindle\Bridge\WorkerEnvironment;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Server\Tasks\TaskClient;

/**
 * Laravel Echo on the app's own port: when the app's broadcasting config has a connection Spindle
 * serves (PusherConnections), `/app/{key}` (the Pusher protocol's WebSocket) and `/apps/{id}/...`
 * (its HTTP API) are answered before the app's router, and the worker's PusherServer is where the
 * app's broadcaster (Broadcasting\InProcessBroadcaster) delivers its events, those of the tasks
 * this worker sends to the task workers included (TaskBroadcast notes, published here).
 */
final class PusherRoutes
{
    /**
     * $handle, with the Pusher endpoints in front of it when $instance's config asks for them.
     *
     * @param \Closure(Request): Response $handle
     * @param TaskClient|null $tasks the worker's client of the task workers, if it has some
     *
     * @return \Closure(Request): Response
     */
    public static function wrap(AppInstance $instance, \Closure $handle, LoggerInterface $logger, ?TaskClient $tasks = null): \Closure
    {
        if (WorkerEnvironment::value('SPINDLE_PUSHER') === '0') {
            return $handle;
        }
        $config = $instance->app->make('config');
        $connections = $config->get('broadcasting.connections');
        $apps = PusherConnections::apps($connections);
        if ($apps === []) {
            return $handle;
        }
        $server = PusherConnections::server($connections, $config->get('reverb.apps.apps'), $config->get('reverb.servers.reverb.scaling'));
        $endpoints = new PusherEndpoints($server);
        $tasks?->onNote(TaskBroadcast::TOPIC, static function (string $note) use ($server, $logger): void {
            try {
                TaskBroadcast::decode($note)->deliver($server);
            } catch (\Throwable $e) {
                $logger->warning('A task worker\'s broadcast was not delivered: ' . $e->getMessage(), ['exception' => $e]);
            }
        });
        $logger->info(\sprintf('Pusher protocol on /app/{key} and /apps/{id} for app id(s) %s', \implode(', ', \array_map(static fn ($app): string => $app->id, $apps))));

        return static fn (Request $request): Response => $endpoints->handle($request) ?? $handle($request);
    }
}
