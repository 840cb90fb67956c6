<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

use Spindle\Server\ExitCause;

/**
 * A request ended the worker process: it accepts no more, finishes its $inflight other requests
 * and exits (see ExitDrain). The master starts its replacement at once.
 */
final readonly class Exiting implements WorkerMessage
{
    public function __construct(
        public ExitCause $cause,
        /** Requests answered before. */
        public int $requests,
        /** The other requests still running, which the worker finishes. */
        public int $inflight,
    ) {
    }

    public function type(): MessageType
    {
        return MessageType::Exiting;
    }
}
