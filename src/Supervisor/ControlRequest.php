<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * One command received on the master's control socket. ControlServer only hands out requests
 * whose command is one of COMMANDS; answer each with ControlServer::reply().
 */
final class ControlRequest
{
    public const STATUS = 'status';
    public const STOP = 'stop';
    public const RELOAD = 'reload';
    public const COMMANDS = [self::STATUS, self::STOP, self::RELOAD];

    /** @param array<array-key, mixed> $arguments the decoded "arguments" object of the request */
    public function __construct(
        public readonly string $command,
        public readonly array $arguments,
        /** Opaque: identifies the connection the reply goes to. */
        public readonly int $clientId,
    ) {
    }
}
