<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

use Spindle\Http\Request;
use Spindle\Http\Response;

/**
 * The Pusher HTTP API of an app, for senders outside the process (another service, a queue
 * worker elsewhere): `POST /apps/{id}/events` and `/apps/{id}/batch_events` publish to the
 * worker's subscribers, `GET /apps/{id}/channels`, `/channels/{name}` and `/channels/{name}/users`
 * describe them. Every request is signed (RequestSignature): a wrong one gets 401, a stale
 * auth_timestamp included. An event's `info` (`user_count`, `subscription_count`) makes the answer
 * describe its channels.
 */
final class HttpApi
{
    /** Bytes an event's data may have, as the Pusher protocol's message limit. */
    public const MAX_DATA = 10_000;

    public function __construct(
        private readonly PusherServer $server,
    ) {
    }

    /** @param array<string, string> $query */
    public function handle(Request $request, PusherApp $app, string $rest, array $query): Response
    {
        $body = $request->method === 'POST' ? $request->bodyContents() : '';
        $refused = RequestSignature::check($app, $request->method, $request->path, $query, $body);
        if ($refused !== null) {
            return self::answer(401, ['error' => $refused]);
        }
        $server = $this->server;

        return match (true) {
            $rest === 'events' && $request->method === 'POST' => $this->events($app, $body, false),
            $rest === 'batch_events' && $request->method === 'POST' => $this->events($app, $body, true),
            $rest === 'channels' && $request->method === 'GET' => self::answer(200, ['channels' => (object) $this->info(
                $app,
                \array_values(\array_filter(\array_keys($server->occupied($app)), static fn (string $name): bool => \str_starts_with($name, $query['filter_by_prefix'] ?? ''))),
                \array_values(\array_intersect(\explode(',', $query['info'] ?? ''), ['user_count'])),
            )]),
            \preg_match('#^channels/([^/]+)$#', $rest, $m) === 1 && $request->method === 'GET' => self::answer(200, $server->subscriptionCount($app, \rawurldecode($m[1])) > 0 ? [
                'occupied' => true,
                'subscription_count' => $server->subscriptionCount($app, \rawurldecode($m[1])),
            ] : ['occupied' => false]),
            \preg_match('#^channels/(presence-[^/]+)/users$#', $rest, $m) === 1 && $request->method === 'GET' => self::answer(200, [
                'users' => \array_map(static fn (Member $member): array => ['id' => $member->userId], $server->users($app, \rawurldecode($m[1]))),
            ]),
            default => self::answer(404, ['error' => 'Not a Pusher API endpoint: ' . $request->method . ' ' . $request->path]),
        };
    }

    private function events(PusherApp $app, string $body, bool $batch): Response
    {
        try {
            $payload = \json_decode($body, true, 32, \JSON_THROW_ON_ERROR);
        } catch (\JsonException $e) {
            return self::answer(400, ['error' => 'The body is no JSON: ' . $e->getMessage()]);
        }
        if (!\is_array($payload)) {
            return self::answer(400, ['error' => 'The body is no JSON object']);
        }
        $events = $batch ? $payload['batch'] ?? null : [$payload];
        if (!\is_array($events) || $events === []) {
            return self::answer(400, ['error' => 'batch_events takes a non-empty "batch" list']);
        }
        $valid = [];
        foreach ($events as $event) {
            $checked = \is_array($event) ? self::event($event) : 'An event is no JSON object';
            if (\is_string($checked)) {
                return self::answer(\str_contains($checked, 'too large') ? 413 : 400, ['error' => $checked]);
            }
            $valid[] = $checked;
        }
        foreach ($valid as [$name, $channels, $data, $socketId]) {
            $this->server->publish($app, $channels, $name, $data, $socketId);
        }
        if ($batch) {
            return self::answer(200, ['batch' => \array_fill(0, \count($valid), (object) [])]);
        }
        $info = \is_string($payload['info'] ?? null) ? \explode(',', $payload['info']) : [];

        return self::answer(200, $info === [] ? (object) [] : ['channels' => $this->info($app, $valid[0][1], $info)]);
    }

    /**
     * What `info` asked for about the channels an event went to: `user_count` of presence
     * channels, `subscription_count` of the others.
     *
     * @param list<string> $channels
     * @param list<string> $info
     *
     * @return array<string, object>
     */
    private function info(PusherApp $app, array $channels, array $info): array
    {
        $answer = [];
        foreach ($channels as $channel) {
            $fields = [];
            $presence = \str_starts_with($channel, 'presence-');
            if ($presence && \in_array('user_count', $info, true)) {
                $fields['user_count'] = \count($this->server->users($app, $channel));
            }
            if (!$presence && \in_array('subscription_count', $info, true)) {
                $fields['subscription_count'] = $this->server->subscriptionCount($app, $channel);
            }
            $answer[$channel] = (object) $fields;
        }

        return $answer;
    }

    /**
     * The event's name, channels, data and socket_id, or why it is refused.
     *
     * @param array<mixed> $event
     *
     * @return array{string, list<string>, string, ?string}|string
     */
    private static function event(array $event): array|string
    {
        $name = $event['name'] ?? null;
        $channels = $event['channels'] ?? (isset($event['channel']) ? [$event['channel']] : null);
        $data = $event['data'] ?? null;
        $socketId = $event['socket_id'] ?? null;
        if (!\is_string($name) || $name === '' || \strlen($name) > 200) {
            return 'An event needs a "name" of 1 to 200 characters';
        }
        if (!\is_array($channels) || $channels === [] || \count($channels) > 100 || !\array_is_list($channels)) {
            return 'An event needs "channels", a list of 1 to 100 channel names (or one "channel")';
        }
        foreach ($channels as $channel) {
            if (!\is_string($channel) || !PusherHandler::isChannelName($channel)) {
                return 'Invalid channel name: ' . \json_encode($channel);
            }
        }
        if (\is_array($data)) {
            // Some senders give the data as JSON rather than as a string of JSON.
            $data = Frames::json($data);
        }
        if (!\is_string($data)) {
            return 'An event\'s "data" is a string (or a JSON object)';
        }
        if (\strlen($data) > self::MAX_DATA) {
            return \sprintf('The event\'s data is too large: %d bytes, at most %d', \strlen($data), self::MAX_DATA);
        }
        // A socket_id that is none leaves no connection out.
        $socketId = \is_string($socketId) && ChannelAuth::isSocketId($socketId) ? $socketId : null;

        /** @var list<string> $channels */
        return [$name, $channels, $data, $socketId];
    }

    private static function answer(int $status, mixed $body): Response
    {
        return new Response($status, ['Content-Type' => 'application/json'], Frames::json($body));
    }
}
