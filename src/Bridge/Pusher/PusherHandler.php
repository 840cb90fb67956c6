<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

use Spindle\Http\WebSocket\CloseCode;
use Spindle\Http\WebSocket\OriginPolicy;
use Spindle\Http\WebSocket\WebSocket;
use Spindle\Http\WebSocket\WebSocketHandler;

/**
 * The Pusher protocol (version 7, what pusher-js and Laravel Echo speak) on a WebSocket opened at
 * `/app/{key}`: pusher:connection_established with a socket id, pusher:subscribe and unsubscribe
 * for public, private (`private-`, `private-encrypted-`: the server only relays what it cannot
 * read) and presence (`presence-`) channels, the auth of private and presence channels checked
 * against the app's secret, client events (`client-*`) on private and presence channels relayed
 * to the other subscribers, pusher:ping answered with pusher:pong, silent clients pinged and
 * dropped with 4201 when they do not answer (ActivityMonitor). Errors are pusher:error events
 * with the codes pusher-js acts on (ErrorCode); those that end the connection close it with the
 * same code.
 */
final class PusherHandler implements WebSocketHandler
{
    private const APP = 'pusher.app';
    private const SOCKET_ID = 'pusher.socket_id';
    private const CHANNELS = 'pusher.channels';
    private const EVENTS = 'pusher.client_events';

    public function __construct(
        private readonly PusherServer $server,
    ) {
    }

    public function onOpen(WebSocket $socket): void
    {
        $key = \preg_match('#^/app/([^/]+)$#', $socket->request->path, $m) === 1 ? \rawurldecode($m[1]) : '';
        $app = $this->server->appByKey($key);
        if ($app === null) {
            $this->fail($socket, ErrorCode::ApplicationDoesNotExist);

            return;
        }
        if ($app->allowedOrigins !== null && !(new OriginPolicy($app->allowedOrigins))->allows($socket->request->header('origin'))) {
            $socket->send(Frames::error(ErrorCode::Unauthorized, 'Origin not allowed'));
            $socket->close(ErrorCode::Unauthorized->value, 'Origin not allowed');

            return;
        }
        if (!$this->server->open($app)) {
            $this->fail($socket, ErrorCode::OverCapacity);

            return;
        }
        $socketId = \random_int(1, 999_999_999) . '.' . \random_int(1, 999_999_999);
        $socket->attributes[self::APP] = $app;
        $socket->attributes[self::SOCKET_ID] = $socketId;
        $socket->attributes[self::CHANNELS] = [];
        $this->server->activity->watch($socket, $app);
        $socket->send(Frames::event('pusher:connection_established', ['socket_id' => $socketId, 'activity_timeout' => $app->activityTimeout]));
    }

    public function onMessage(WebSocket $socket, string $message, bool $binary): void
    {
        $app = $socket->attributes[self::APP] ?? null;
        if (!$app instanceof PusherApp) {
            return;
        }
        $this->server->activity->heard($socket);
        if (\strlen($message) > $app->maxMessageSize) {
            $socket->close(CloseCode::MessageTooBig, 'Message too big');

            return;
        }
        try {
            $frame = \json_decode($message, true, 32, \JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            $frame = null;
        }
        if (!\is_array($frame) || !isset($frame['event']) || !\is_string($frame['event'])) {
            $socket->send(Frames::error(null, 'Invalid message format'));

            return;
        }
        $data = $frame['data'] ?? null;
        if (\is_string($data) && \str_starts_with($frame['event'], 'pusher:')) {
            // Some clients send the data of pusher:* events as a JSON string.
            $data = \json_decode($data, true);
        }
        match (true) {
            $frame['event'] === 'pusher:ping' => $socket->send(Frames::event('pusher:pong')),
            $frame['event'] === 'pusher:pong' => null,
            $frame['event'] === 'pusher:subscribe' => $this->subscribe($socket, $app, \is_array($data) ? $data : []),
            $frame['event'] === 'pusher:unsubscribe' => $this->unsubscribe($socket, $app, \is_array($data) && \is_string($data['channel'] ?? null) ? $data['channel'] : ''),
            \str_starts_with($frame['event'], 'client-') => $this->clientEvent($socket, $app, $frame),
            default => null,
        };
    }

    public function onClose(WebSocket $socket, int $code, string $reason): void
    {
        $app = $socket->attributes[self::APP] ?? null;
        if (!$app instanceof PusherApp) {
            return;
        }
        foreach ($this->channelsOf($socket) as $channel) {
            $this->unsubscribe($socket, $app, $channel);
        }
        unset($socket->attributes[self::APP]);
        $this->server->activity->forget($socket);
        $this->server->closed($app);
    }

    /** @param array<mixed> $data */
    private function subscribe(WebSocket $socket, PusherApp $app, array $data): void
    {
        $channel = $data['channel'] ?? null;
        if (!\is_string($channel) || !self::isChannelName($channel)) {
            $socket->send(Frames::error(null, 'Invalid channel name'));

            return;
        }
        $socketId = self::socketId($socket);
        $member = null;
        if (\str_starts_with($channel, 'private-') || \str_starts_with($channel, 'presence-')) {
            $auth = \is_string($data['auth'] ?? null) ? $data['auth'] : '';
            $channelData = null;
            if (\str_starts_with($channel, 'presence-')) {
                // A worker that just started may not have heard every peer's members yet.
                $this->server->cluster->settle();
                $channelData = \is_string($data['channel_data'] ?? null) ? $data['channel_data'] : '';
                $member = Member::fromChannelData($channelData);
            }
            if (!ChannelAuth::verify($app, $auth, $socketId, $channel, $channelData) || ($channelData !== null && $member === null)) {
                $socket->send(Frames::error(ErrorCode::Unauthorized));

                return;
            }
        }
        $channels = $this->server->channels($app);
        if ($channels->isSubscribed($channel, $socketId)) {
            // Subscribed already: the presence member stays who it was.
            $member = null;
        }
        $isNewUser = $this->server->subscribe($app, $channel, $socketId, $socket, $member);
        $socket->attributes[self::CHANNELS] = \array_values(\array_unique([...$this->channelsOf($socket), $channel]));
        if (\str_starts_with($channel, 'presence-')) {
            $users = $this->server->users($app, $channel);
            $hash = [];
            foreach ($users as $user) {
                $hash[(string) $user->userId] = $user->userInfo;
            }
            $socket->send(Frames::event('pusher_internal:subscription_succeeded', ['presence' => [
                'ids' => \array_map(static fn (Member $user): string|int => $user->userId, $users),
                'hash' => (object) $hash,
                'count' => \count($users),
            ]], $channel));
            if ($isNewUser && $member !== null) {
                // To this worker's subscribers: the others learn it from the fan-out.
                $channels->send($channel, Frames::event('pusher_internal:member_added', ['user_id' => $member->userId, 'user_info' => $member->userInfo], $channel), $socketId);
            }

            return;
        }
        $socket->send(Frames::event('pusher_internal:subscription_succeeded', '{}', $channel));
    }

    private function unsubscribe(WebSocket $socket, PusherApp $app, string $channel): void
    {
        $socketId = self::socketId($socket);
        $channels = $this->server->channels($app);
        if (!$channels->isSubscribed($channel, $socketId)) {
            return;
        }
        $left = $this->server->unsubscribe($app, $channel, $socketId);
        $socket->attributes[self::CHANNELS] = \array_values(\array_diff($this->channelsOf($socket), [$channel]));
        if ($left !== null) {
            // To this worker's subscribers: the others learn it from the fan-out.
            $channels->send($channel, Frames::event('pusher_internal:member_removed', ['user_id' => $left->userId], $channel));
        }
    }

    /**
     * A client event: relayed to the channel's other connections when the channel is private or
     * presence (not encrypted: the server could not vouch for its content), the app accepts
     * client events from the sender (subscribed to the channel, or anyone: ClientEvents), and it
     * stays within the app's client events per second.
     *
     * @param array<mixed> $frame
     */
    private function clientEvent(WebSocket $socket, PusherApp $app, array $frame): void
    {
        $channel = \is_string($frame['channel'] ?? null) ? $frame['channel'] : '';
        $socketId = self::socketId($socket);
        $channels = $this->server->channels($app);
        if (
            !(\str_starts_with($channel, 'private-') || \str_starts_with($channel, 'presence-'))
            || \str_starts_with($channel, 'private-encrypted-')
        ) {
            $socket->send(Frames::error(null, 'Client event rejected - only supported on private and presence channels'));

            return;
        }
        if ($app->clientEvents === ClientEvents::None) {
            $socket->send(Frames::error(ErrorCode::ClientEventRejected, 'The app does not have client messaging enabled.'));

            return;
        }
        if ($app->clientEvents === ClientEvents::Members && !$channels->isSubscribed($channel, $socketId)) {
            $socket->send(Frames::error(ErrorCode::Unauthorized, 'The client is not a member of the specified channel.'));

            return;
        }
        if (!$this->withinRate($socket, $app)) {
            $socket->send(Frames::error(ErrorCode::ClientEventRejected, 'Client event rejected - over the rate limit'));

            return;
        }
        $relayed = ['event' => $frame['event'], 'channel' => $channel, 'data' => $frame['data'] ?? null];
        if (\str_starts_with($channel, 'presence-')) {
            $relayed['user_id'] = $channels->memberOf($channel, $socketId)?->userId;
        }
        $this->server->send($app, $channel, Frames::json($relayed), $socketId);
    }

    private function withinRate(WebSocket $socket, PusherApp $app): bool
    {
        if ($app->clientEventsPerSecond === 0) {
            return true;
        }
        $second = \time();
        $window = $socket->attributes[self::EVENTS] ?? [0, 0];
        \assert(\is_array($window));
        $window = $window[0] === $second ? [$second, $window[1] + 1] : [$second, 1];
        $socket->attributes[self::EVENTS] = $window;

        return $window[1] <= $app->clientEventsPerSecond;
    }

    private function fail(WebSocket $socket, ErrorCode $code): void
    {
        $socket->send(Frames::error($code));
        $socket->close($code->value, $code->message());
    }

    /** @return list<string> */
    private function channelsOf(WebSocket $socket): array
    {
        $channels = $socket->attributes[self::CHANNELS] ?? [];
        \assert(\is_array($channels));

        return \array_values(\array_filter($channels, 'is_string'));
    }

    private static function socketId(WebSocket $socket): string
    {
        $socketId = $socket->attributes[self::SOCKET_ID] ?? '';
        \assert(\is_string($socketId));

        return $socketId;
    }

    /** Channel names as the protocol allows them: at most 164 of A–Z a–z 0–9 _ - = @ , . ; */
    public static function isChannelName(string $channel): bool
    {
        return \preg_match('/\A[A-Za-z0-9_\-=@,.;]{1,164}\z/', $channel) === 1;
    }
}
