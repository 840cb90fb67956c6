<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Revolt\EventLoop\Suspension;

/**
 * @internal One command written on a connection whose reply has not arrived. Only the last
 * command of a batch has a suspension: the fiber waits for that one, the others are filled in
 * on the way.
 */
final class Pending
{
    public mixed $reply = null;
    public bool $done = false;

    /**
     * @param float $timeout the seconds $deadline allows, for messages
     * @param Suspension<mixed>|null $suspension
     */
    public function __construct(
        public readonly string $command,
        public readonly ?float $deadline,
        public readonly float $timeout,
        public ?Suspension $suspension = null,
    ) {
    }
}
