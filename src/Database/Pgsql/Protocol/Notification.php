<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/** NotificationResponse: a NOTIFY on a channel this session LISTENs to. */
final class Notification
{
    public function __construct(
        public readonly int $processId,
        public readonly string $channel,
        public readonly string $payload,
    ) {
    }
}
