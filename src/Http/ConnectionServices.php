<?php

declare(strict_types=1);

namespace Spindle\Http;

use Psr\Log\LoggerInterface;
use Spindle\Loop\TaskRunner;

/**
 * What every connection of a server shares: the request handler and the services around it.
 */
final class ConnectionServices
{
    /**
     * @param \Closure(Request): Response $handler
     */
    public function __construct(
        public readonly \Closure $handler,
        public readonly HttpLimits $limits,
        public readonly TaskRunner $runner,
        public readonly LoggerInterface $logger,
        public readonly Clock $clock,
        public readonly ResponseSerializer $serializer,
        public readonly string $uploadDir,
        public readonly bool $debug,
        /** Seconds a request may run before it gets a 504 and is cancelled (0: no limit). */
        public readonly float $requestTimeout = 0.0,
        /**
         * Gives each request its X-Request-Id as the connection builds it (`--access-log`), null
         * for none. The connection sends the id back with the response.
         *
         * @var (\Closure(array<string, list<string>>): array<string, list<string>>)|null
         */
        public readonly ?\Closure $requestIds = null,
        /** The deadlines of the connections; the server expires them on a timer. */
        public readonly TimeoutWheel $timeouts = new TimeoutWheel(0.0),
    ) {
    }
}
