<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

/** The worker accepts connections. */
final readonly class Ready implements WorkerMessage
{
    public function type(): MessageType
    {
        return MessageType::Ready;
    }
}
