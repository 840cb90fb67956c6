<?php

declare(strict_types=1);

namespace Spindle\Server;

/**
 * Opens the listening socket. The master opens one and every worker inherits it (see Master):
 * without SO_REUSEPORT, so a second server started on the same port fails loudly instead of
 * quietly taking part of the traffic.
 */
final class Listener
{
    private function __construct()
    {
    }

    /** @return resource */
    public static function listen(string $host, int $port, int $backlog = 1024): mixed
    {
        $address = (\str_contains($host, ':') ? '[' . $host . ']' : $host) . ':' . $port;
        $context = \stream_context_create(['socket' => [
            'backlog' => $backlog,
            'tcp_nodelay' => true,
            'ipv6_v6only' => true,
        ]]);
        $socket = @\stream_socket_server('tcp://' . $address, $errno, $error, \STREAM_SERVER_BIND | \STREAM_SERVER_LISTEN, $context);
        if ($socket === false) {
            throw new ServerError(\sprintf('Cannot listen on %s: %s', $address, $error !== '' ? $error : 'error ' . $errno));
        }
        \stream_set_blocking($socket, false);

        return $socket;
    }

    /** @param resource $socket */
    public static function port(mixed $socket): int
    {
        $name = (string) \stream_socket_get_name($socket, false);

        return (int) \substr($name, (int) \strrpos($name, ':') + 1);
    }
}
