<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

use Spindle\Database\Mysql\Protocol\Errors;
use Spindle\Loop\ClientSocket;
use Spindle\Loop\ClientSocketException;
use Spindle\Loop\ClientSocketFailure;
use Spindle\Loop\SocketWaiter;

/**
 * @internal Opens the socket of a MySQL connection (Loop\ClientSocket: TCP or a unix socket,
 * connected without blocking the worker, within the connect deadline) and words its failures as
 * mysqlnd's 2002 errors. The protocol (TLS included) is SocketConnection's.
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
        $where = self::describe($config);
        try {
            $socket = ClientSocket::connect(ClientSocket::uri($config->host, $config->port, $config->unixSocket), $deadline);
        } catch (ClientSocketException $e) {
            throw new MysqlException(sprintf("Can't connect to MySQL server on %s (%s)", $where, match ($e->failure) {
                ClientSocketFailure::TimedOut => sprintf('timed out after %.3g s', $config->connectTimeout),
                ClientSocketFailure::Refused => $e->errno !== 0 ? $e->errno . ': ' . $e->reason : 'connection failed',
                default => $e->errno . ': ' . $e->reason,
            }), Errors::CONNECTION_ERROR);
        }

        return [$socket, new SocketWaiter($socket)];
    }

    public static function describe(ConnectionConfig $config): string
    {
        return $config->unixSocket !== null
            ? sprintf("socket '%s'", $config->unixSocket)
            : sprintf("'%s:%d'", $config->host, $config->port);
    }
}
