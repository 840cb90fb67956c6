<?php

declare(strict_types=1);

namespace Spindle\Bridge\HttpFoundation;

use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\WebSocket\WebSocketHandler;
use Spindle\Http\WebSocket\WebSocketOptions;
use Spindle\Http\WebSocket\WebSocketUpgrade;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;
use Symfony\Component\HttpFoundation\Response as SymfonyResponse;

/**
 * Accepts a WebSocket from a Laravel route or a Symfony controller: return what accept() gives.
 *
 *     Route::get('/chat', fn (Request $request) => WebSocketResponse::accept($request, new ClosureWebSocketHandler(
 *         onMessage: fn (WebSocket $socket, string $message) => $socket->send($message),
 *     )));
 *
 * A valid handshake becomes the 101 and the connection is the handler's (see WebSocketHandler:
 * its calls run in tasks of their own, after the request has ended and its app instance has gone
 * back to the pool: they must not rely on the request's services); an invalid one is answered
 * 400, 403 or 426 like any response the app returns.
 */
final class WebSocketResponse extends SymfonyResponse
{
    private ?Response $upgrade = null;

    public static function accept(SymfonyRequest $request, WebSocketHandler $handler, WebSocketOptions $options = new WebSocketOptions()): self
    {
        $headers = [];
        foreach ($request->headers->all() as $name => $values) {
            $headers[\strtolower((string) $name)] = \array_values(\array_map('strval', \array_filter($values, static fn (?string $value): bool => $value !== null)));
        }
        $spindle = new Request(
            $request->getMethod(),
            $request->getRequestUri(),
            $request->getPathInfo(),
            (string) $request->getQueryString(),
            \substr((string) $request->getProtocolVersion(), 5) ?: '1.1',
            $headers,
        );
        $answer = WebSocketUpgrade::accept($spindle, $handler, $options);
        $response = new self(\is_string($answer->body) ? $answer->body : '', $answer->status);
        foreach ($answer->headers as $name => $value) {
            $response->headers->set($name, $value);
        }
        if ($answer->upgrade !== null) {
            $response->upgrade = $answer;
        }

        return $response;
    }

    /** The 101 that hands the connection over, when the handshake was accepted (ResponseConverter sends it). */
    public function upgrade(): ?Response
    {
        return $this->upgrade;
    }
}
