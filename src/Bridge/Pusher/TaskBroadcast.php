<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * A broadcast made in a task worker, on its way to the HTTP worker that sent the task (a note of
 * topic TOPIC, Server\Tasks\TaskCaller): the app's id, the channels, the event, its data and the
 * socket id left out, as one JSON object. The HTTP worker publishes it with its PusherServer, as
 * if it had been made there: once to its own subscribers and once to its peers.
 */
final class TaskBroadcast
{
    public const TOPIC = 'pusher.publish';

    /** @param list<string> $channels */
    public function __construct(
        public readonly string $appId,
        public readonly array $channels,
        public readonly string $event,
        public readonly string $data,
        public readonly ?string $exceptSocketId = null,
    ) {
    }

    public function encode(): string
    {
        return Frames::json(['a' => $this->appId, 'c' => $this->channels, 'e' => $this->event, 'd' => $this->data, 'x' => $this->exceptSocketId]);
    }

    /** @throws \InvalidArgumentException when $json is no broadcast */
    public static function decode(string $json): self
    {
        try {
            $value = \json_decode($json, true, 8, \JSON_THROW_ON_ERROR);
        } catch (\JsonException $e) {
            throw new \InvalidArgumentException('A task\'s broadcast that is not JSON: ' . $e->getMessage(), 0, $e);
        }
        $channels = \is_array($value) ? ($value['c'] ?? null) : null;
        if (!\is_array($value) || !\is_string($value['a'] ?? null) || !\is_string($value['e'] ?? null) || !\is_string($value['d'] ?? null)
            || !\is_array($channels) || !\array_is_list($channels) || $channels === [] || \array_filter($channels, 'is_string') !== $channels
            || !(($value['x'] ?? null) === null || \is_string($value['x']))) {
            throw new \InvalidArgumentException('A task\'s broadcast without its app, channels, event and data: ' . \substr($json, 0, 200));
        }

        return new self($value['a'], $channels, $value['e'], $value['d'], $value['x'] ?? null);
    }

    /**
     * Publishes it with $server (in the HTTP worker): its subscribers, then every peer. Returns
     * how many of $server's own connections it went to.
     *
     * @throws \InvalidArgumentException when $server has no app of that id
     */
    public function deliver(PusherServer $server): int
    {
        $app = $server->appById($this->appId) ?? throw new \InvalidArgumentException(\sprintf('A task broadcast %s for app id %s, which this server does not serve', $this->event, $this->appId));

        return $server->publish($app, $this->channels, $this->event, $this->data, $this->exceptSocketId);
    }
}
