<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

use Spindle\Database\Mysql\Protocol\Errors;
use Spindle\Loop\SocketWaiter;

/**
 * @internal Opens the socket of a MySQL connection: TCP (TCP_NODELAY) or a unix socket,
 * connected without blocking the worker (only the calling fiber waits), within the connect
 * deadline, with mysqlnd's 2002 errors. The protocol (TLS included) is SocketConnection's.
 */
final class SocketOpener
{
    private function __construct()
    {
    }

    /**
     * @return array{resource, SocketWaiter}
     *
     * @throws MysqlException 2002
     */
    public static function open(ConnectionConfig $config, ?float $deadline): array
    {
        $unix = $config->unixSocket !== null;
        $uri = $unix
            ? 'unix://' . $config->unixSocket
            : 'tcp://' . (str_contains($config->host, ':') ? '[' . $config->host . ']' : $config->host) . ':' . $config->port;
        $where = self::describe($config);
        $context = stream_context_create(['socket' => ['tcp_nodelay' => true]]);
        $errno = 0;
        $errstr = '';
        $socket = @stream_socket_client($uri, $errno, $errstr, null, STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT, $context);
        if ($socket === false) {
            throw new MysqlException(sprintf("Can't connect to MySQL server on %s (%d: %s)", $where, $errno, $errstr), Errors::CONNECTION_ERROR);
        }
        stream_set_blocking($socket, false);
        // Unbuffered: each fread() returns what the kernel has, up to the connection's read size, not 8 KiB.
        stream_set_read_buffer($socket, 0);
        $waiter = new SocketWaiter($socket);
        try {
            $ready = $waiter->wait(true, $deadline);
        } catch (\Throwable $e) {
            $waiter->cancel();
            fclose($socket);
            throw $e;
        }
        if (!$ready) {
            $waiter->cancel();
            fclose($socket);
            throw new MysqlException(
                sprintf("Can't connect to MySQL server on %s (timed out after %.3g s)", $where, $config->connectTimeout),
                Errors::CONNECTION_ERROR,
            );
        }
        if (!$unix && @stream_socket_get_name($socket, true) === false) {
            $reason = self::socketError($socket);
            $waiter->cancel();
            fclose($socket);
            throw new MysqlException(sprintf("Can't connect to MySQL server on %s (%s)", $where, $reason), Errors::CONNECTION_ERROR);
        }

        return [$socket, $waiter];
    }

    /** @param resource $socket */
    private static function socketError($socket): string
    {
        if (\function_exists('socket_import_stream')) {
            $raw = @socket_import_stream($socket);
            if ($raw !== false) {
                $code = @socket_get_option($raw, SOL_SOCKET, SO_ERROR);
                if (\is_int($code) && $code !== 0) {
                    return $code . ': ' . socket_strerror($code);
                }
            }
        }

        return 'connection failed';
    }

    public static function describe(ConnectionConfig $config): string
    {
        return $config->unixSocket !== null
            ? sprintf("socket '%s'", $config->unixSocket)
            : sprintf("'%s:%d'", $config->host, $config->port);
    }
}
