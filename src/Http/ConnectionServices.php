<?php

declare(strict_types=1);

namespace Spindle\Http;

use Psr\Log\LoggerInterface;
use Spindle\Http\Parser\HeadCache;
use Spindle\Http\WebSocket\WebSocketConnections;

/**
 * What every connection of a server shares: what runs its requests, and the services around it.
 */
final class ConnectionServices
{
    /** The request heads the connections parsed lately, reused when the same bytes come again. */
    public readonly HeadCache $heads;
    /** The request-body bytes the connections hold in memory, against HttpLimits::$bodyBufferTotal. */
    public readonly BodyMemory $bodyMemory;

    public function __construct(
        /** Runs each whole request's task and calls the request handler (the app behind the server's middleware). */
        public readonly RequestRunner $requests,
        public readonly HttpLimits $limits,
        public readonly LoggerInterface $logger,
        public readonly Clock $clock,
        public readonly ResponseSerializer $serializer,
        public readonly string $uploadDir,
        /** Whether a response that cannot be sent says why in its 500 (--debug). */
        public readonly bool $debug,
        /** The deadlines of the connections; the server expires them on a timer. */
        public readonly TimeoutWheel $timeouts = new TimeoutWheel(0.0),
        /** Whether the handler reads request bodies as they arrive (it is a StreamsRequestBody). */
        public readonly bool $streamBodies = false,
        /**
         * Whether HTTP/1.1 clients get interim responses (103 Early Hints; --early-hints-http1):
         * off by default, since some proxies take an upstream 103 for the final response. HTTP/2
         * streams always get them.
         */
        public readonly bool $interimOverHttp1 = false,
        /** The worker's WebSocket connections: its counts and limits (--ws-max-connections…). */
        public readonly WebSocketConnections $webSockets = new WebSocketConnections(),
    ) {
        $this->heads = new HeadCache($limits);
        $this->bodyMemory = new BodyMemory($limits->bodyBufferTotal);
    }
}
