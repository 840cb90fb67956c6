<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

/**
 * One message a worker sends its master over their channel: a readonly value, written and read
 * by MessageCodec only.
 */
interface WorkerMessage
{
    public function type(): MessageType;
}
