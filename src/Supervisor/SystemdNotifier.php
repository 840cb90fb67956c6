<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * sd_notify(3) without libsystemd: one datagram to $NOTIFY_SOCKET per state change, so that a
 * unit with `Type=notify` knows when the server is ready (READY=1), reloading (RELOADING=1) or
 * stopping (STOPPING=1). Without NOTIFY_SOCKET (not started by systemd) there is nothing to do.
 */
final class SystemdNotifier
{
    private function __construct(private readonly string $address)
    {
    }

    public static function fromEnvironment(): ?self
    {
        $path = \getenv('NOTIFY_SOCKET');
        if (!\is_string($path) || $path === '' || !\function_exists('socket_create')) {
            return null;
        }

        // "@name" is a socket in the abstract namespace: its address starts with a NUL byte.
        return new self($path[0] === '@' ? "\0" . \substr($path, 1) : $path);
    }

    /** Sends one state ("READY=1\nMAINPID=42"); a failure is ignored, as sd_notify's caller would. */
    public function notify(string $state): bool
    {
        $socket = @\socket_create(\AF_UNIX, \SOCK_DGRAM, 0);
        if ($socket === false) {
            return false;
        }
        try {
            return @\socket_sendto($socket, $state, \strlen($state), 0, $this->address) === \strlen($state);
        } finally {
            \socket_close($socket);
        }
    }
}
