<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Http\WebSocket\WebSocketOptions;
use Spindle\Http\WebSocket\WebSocketUpgrade;

/**
 * What a server answers for its Pusher apps ahead of the app itself: the WebSocket of the Pusher
 * protocol at `/app/{key}` (PusherHandler) and the HTTP API at `/apps/{id}/...` (HttpApi). Any
 * other request is not theirs (handle() gives null) and goes to the app.
 */
final class PusherEndpoints
{
    private readonly PusherHandler $handler;
    private readonly HttpApi $api;
    private readonly WebSocketOptions $options;
    /** @var array<string, WebSocketOptions> app key => its options, for apps whose max_message_size is not the default */
    private array $appOptions = [];

    public function __construct(
        public readonly PusherServer $server,
        ?WebSocketOptions $options = null,
    ) {
        $server->serve();
        $this->handler = new PusherHandler($server);
        $this->api = new HttpApi($server);
        // Messages of at most 10,000 bytes; a WebSocket ping after 120 s of silence (pusher-js
        // pings every activity_timeout seconds, so only a vanished client stays silent that long).
        $this->options = $options ?? new WebSocketOptions(WebSocketLimits::forPusher(), idleTimeout: 120.0, drainCode: 4200);
    }

    public function handle(Request $request): ?Response
    {
        if (\str_starts_with($request->path, '/app/')) {
            return WebSocketUpgrade::accept($request, $this->handler, $this->optionsFor($request->path));
        }
        if (\preg_match('#^/apps/([^/]+)/(.+)$#', $request->path, $m) !== 1) {
            return null;
        }
        $app = $this->server->appById(\rawurldecode($m[1]));
        if ($app === null) {
            return new Response(404, ['Content-Type' => 'application/json'], Frames::json(['error' => 'Unknown app id']));
        }
        \parse_str($request->query, $query);
        $strings = [];
        foreach ($query as $name => $value) {
            if (\is_string($value)) {
                $strings[(string) $name] = $value;
            }
        }

        return $this->api->handle($request, $app, $m[2], $strings);
    }

    /** The WebSocket options of the app at $path: its max_message_size bounds messages and frames. */
    private function optionsFor(string $path): WebSocketOptions
    {
        $key = \preg_match('#^/app/([^/]+)$#', $path, $m) === 1 ? \rawurldecode($m[1]) : '';
        $app = $this->server->appByKey($key);
        $limits = $this->options->limits;
        if ($app === null || ($app->maxMessageSize === $limits->maxMessageBytes && $app->maxMessageSize === $limits->maxFrameBytes)) {
            return $this->options;
        }

        // The codec's bounds are 125 bytes at least (a control frame's); PusherHandler enforces a smaller size.
        $size = \max(125, $app->maxMessageSize);

        return $this->appOptions[$app->key] ??= new WebSocketOptions(
            new WebSocketLimits($size, $size, $limits->maxFragments, $limits->outgoingFragmentBytes),
            $this->options->subprotocols,
            $this->options->origins,
            $this->options->idleTimeout,
            $this->options->maxBuffered,
            $this->options->drainCode,
        );
    }
}
