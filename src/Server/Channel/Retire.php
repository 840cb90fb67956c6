<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

use Spindle\Server\RetireReason;

/** The worker asks to be replaced (it keeps serving until the master sends SIGTERM). */
final readonly class Retire implements WorkerMessage
{
    public function __construct(public RetireReason $reason)
    {
    }

    public function type(): MessageType
    {
        return MessageType::Retire;
    }
}
