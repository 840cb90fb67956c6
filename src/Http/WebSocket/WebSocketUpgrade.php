<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

use Spindle\Http\ConnectionDriver;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\RunningRequest;
use Spindle\Http\UpgradedSocket;
use Spindle\Http\UpgradeHandler;

/**
 * Accepts a WebSocket handshake from a request handler (a plain handler, a Laravel or Symfony
 * route through their bridges):
 *
 *     return WebSocketUpgrade::accept($request, new ClosureWebSocketHandler(
 *         onMessage: fn (WebSocket $socket, string $message) => $socket->send($message),
 *     ));
 *
 * A request that is no valid handshake (RFC 6455 §4.2.1: no Upgrade, not GET over HTTP/1.1, a bad
 * key, a version other than 13, an origin not allowed) is answered 400, 403 or 426 with the
 * reason; one past the worker's WebSocket limits with 503 (the worker's cap) or 429 (the
 * client address's), with Retry-After; a valid one with 101, after which the connection is the handler's (see
 * WebSocketHandler) and holds no app instance.
 */
final class WebSocketUpgrade implements UpgradeHandler
{
    private function __construct(
        private readonly WebSocketHandler $handler,
        private readonly WebSocketOptions $options,
        private readonly ?string $subprotocol,
    ) {
    }

    public static function accept(Request $request, WebSocketHandler $handler, WebSocketOptions $options = new WebSocketOptions()): Response
    {
        $result = (new ServerHandshake($options->subprotocols, $options->origins))->evaluateRequest($request);
        if (!$result->isAccepted()) {
            $reason = $result->reason !== '' ? $result->reason : 'Not a WebSocket handshake';

            return new Response($result->status > 0 ? $result->status : 400, $result->headers + ['Content-Type' => 'text/plain; charset=utf-8'], $reason . "\n");
        }
        // Within the worker's limits (--ws-max-connections, --ws-max-per-ip)? Checked once the
        // handshake is known to be one: a malformed request gets its own error first.
        // (Outside a server, a handler called directly, there are no limits to check.)
        $refusal = RunningRequest::current()?->owner->services()->webSockets->refusal($request);
        if ($refusal !== null) {
            return new Response($refusal[0], ['Content-Type' => 'text/plain; charset=utf-8', 'Retry-After' => (string) WebSocketConnections::RETRY_AFTER], $refusal[1] . "\n");
        }

        return Response::upgrade($result->headers, new self($handler, $options, $result->subprotocol));
    }

    public function takeOver(UpgradedSocket $socket): ConnectionDriver
    {
        return new WebSocketDriver($socket, $this->handler, $this->options, $this->subprotocol);
    }
}
