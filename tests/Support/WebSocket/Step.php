<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

/**
 * One thing an Autobahn case does: write bytes (one write; $sendsClose when they end with the
 * client's close frame), pause to see what the server does ($label: recorded as a "timeout"
 * event when the connection is still open after the pause; the case's remaining steps are
 * skipped when it is not), or wait until $count messages in all have come back (a round trip).
 */
final class Step
{
    private function __construct(
        public readonly string $kind,
        public readonly string $bytes = '',
        public readonly bool $sendsClose = false,
        public readonly ?string $label = null,
        public readonly float $seconds = 0.0,
        public readonly int $count = 0,
    ) {
    }

    public static function send(string $bytes, bool $sendsClose = false): self
    {
        return new self('send', $bytes, $sendsClose);
    }

    public static function pause(float $seconds, ?string $label = null): self
    {
        return new self('pause', '', false, $label, $seconds);
    }

    public static function awaitMessages(int $count, float $seconds): self
    {
        return new self('await', '', false, null, $seconds, $count);
    }
}
