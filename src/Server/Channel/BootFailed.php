<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

/** Booting the app failed; $error is the exception's class and message. */
final readonly class BootFailed implements WorkerMessage
{
    public function __construct(public string $error)
    {
    }

    public function type(): MessageType
    {
        return MessageType::BootError;
    }
}
