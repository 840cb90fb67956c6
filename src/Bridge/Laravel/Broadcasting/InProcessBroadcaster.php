<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Broadcasting;

use Illuminate\Auth\Access\AuthorizationException;
use Illuminate\Broadcasting\BroadcastException;
use Illuminate\Broadcasting\Broadcasters\Broadcaster;
use Illuminate\Broadcasting\Broadcasters\UsePusherChannelConventions;
use Illuminate\Support\Arr;
use Spindle\Bridge\Pusher\ChannelAuth;
use Spindle\Bridge\Pusher\EncryptedChannels;
use Spindle\Bridge\Pusher\Frames;
use Spindle\Bridge\Pusher\HttpApi;
use Spindle\Bridge\Pusher\Publisher;
use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\PusherServer;

/**
 * The broadcaster of a `reverb` or `pusher` connection that Spindle serves (PusherConnections):
 * broadcast() hands the event to the worker's subscribers at once, with no HTTP request to a
 * Pusher server, and /broadcasting/auth answers the signatures the server checks (the app's
 * channel callbacks decide, as with Laravel's Pusher broadcaster). Events for encrypted channels
 * are sealed here (EncryptedChannels), with the connection's encryption master key.
 *
 * Its publisher is the worker's PusherServer in an HTTP worker, and a TaskPublisher in a task
 * worker (the HTTP worker that sent the task publishes the event).
 */
final class InProcessBroadcaster extends Broadcaster
{
    use UsePusherChannelConventions;

    public function __construct(
        private readonly Publisher $server,
        private readonly PusherApp $app,
    ) {
    }

    /**
     * @param \Illuminate\Http\Request $request
     *
     * @return mixed
     */
    public function auth($request)
    {
        $channel = $request->input('channel_name');
        $socketId = $request->input('socket_id');
        if (!\is_string($channel) || $channel === '' || !\is_string($socketId) || !ChannelAuth::isSocketId($socketId)) {
            throw new AuthorizationException();
        }
        $name = $this->normalizeChannelName($channel);
        if ($this->isGuardedChannel($channel) && !$this->retrieveUser($request, $name)) {
            throw new AuthorizationException();
        }

        return $this->verifyUserCanAccessChannel($request, $name);
    }

    /**
     * @param \Illuminate\Http\Request $request
     * @param mixed $result
     *
     * @return array{auth: string, channel_data?: string, shared_secret?: string}
     */
    public function validAuthenticationResponse($request, $result)
    {
        $channel = (string) $request->input('channel_name');
        $socketId = (string) $request->input('socket_id');
        if (EncryptedChannels::isEncrypted($channel)) {
            if ($this->app->encryptionMasterKey === null) {
                throw new BroadcastException(\sprintf('%s is an encrypted channel: the broadcasting connection needs options.encryption_master_key_base64', $channel));
            }

            return [
                'auth' => ChannelAuth::sign($this->app, $socketId, $channel),
                'shared_secret' => \base64_encode(EncryptedChannels::sharedSecret($this->app->encryptionMasterKey, $channel)),
            ];
        }
        if (!\str_starts_with($channel, 'presence-')) {
            return ['auth' => ChannelAuth::sign($this->app, $socketId, $channel)];
        }
        $user = $this->retrieveUser($request, $this->normalizeChannelName($channel));
        if (!\is_object($user) || !\method_exists($user, 'getAuthIdentifier')) {
            throw new AuthorizationException();
        }
        $userId = \method_exists($user, 'getAuthIdentifierForBroadcasting') ? $user->getAuthIdentifierForBroadcasting() : $user->getAuthIdentifier();
        $member = ['user_id' => $userId];
        if ($result !== null && $result !== true) {
            $member['user_info'] = $result;
        }
        $channelData = Frames::json($member);

        return ['auth' => ChannelAuth::sign($this->app, $socketId, $channel, $channelData), 'channel_data' => $channelData];
    }

    /**
     * @param array<mixed> $channels
     * @param string $event
     * @param array<mixed> $payload
     */
    public function broadcast(array $channels, $event, array $payload = []): void
    {
        if ($this->server instanceof PusherServer && !$this->server->isServing()) {
            throw new BroadcastException(\sprintf('Broadcasting %s failed: this process serves no Pusher connections; broadcast from the server\'s HTTP workers or its task workers', $event));
        }
        $socket = Arr::pull($payload, 'socket');
        $data = Frames::json($payload);
        if (\strlen($data) > HttpApi::MAX_DATA) {
            throw new BroadcastException(\sprintf('Broadcasting %s failed: its payload is %d bytes, the Pusher protocol allows %d', $event, \strlen($data), HttpApi::MAX_DATA));
        }
        $except = \is_string($socket) && ChannelAuth::isSocketId($socket) ? $socket : null;
        $plain = [];
        foreach ($this->formatChannels($channels) as $channel) {
            $channel = (string) $channel;
            if (!EncryptedChannels::isEncrypted($channel)) {
                $plain[] = $channel;
            } elseif ($this->app->encryptionMasterKey === null) {
                throw new BroadcastException(\sprintf('Broadcasting %s to %s needs an encryption master key (options.encryption_master_key_base64)', $event, $channel));
            } else {
                $this->publish([$channel], (string) $event, EncryptedChannels::seal($this->app->encryptionMasterKey, $channel, $data), $except);
            }
        }
        if ($plain !== []) {
            $this->publish($plain, (string) $event, $data, $except);
        }
    }

    /** @param list<string> $channels */
    private function publish(array $channels, string $event, string $data, ?string $except): void
    {
        try {
            $this->server->publish($this->app, $channels, $event, $data, $except);
        } catch (\RuntimeException $e) {
            throw new BroadcastException(\sprintf('Broadcasting %s failed: %s', $event, $e->getMessage()), 0, $e);
        }
    }
}
