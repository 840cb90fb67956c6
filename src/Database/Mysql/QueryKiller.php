<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

use Revolt\EventLoop;

/**
 * @internal A query that timed out keeps running on the server until it is killed: KILL QUERY
 * from a fresh connection (same server, same account, short timeouts), in the background, with
 * errors ignored.
 */
final class QueryKiller
{
    private function __construct()
    {
    }

    /** After a query timeout: KILL QUERY from a fresh connection, in the background, errors ignored. */
    public static function killInBackground(ConnectionConfig $c, int $id): void
    {
        $config = new ConnectionConfig(
            host: $c->host,
            port: $c->port,
            unixSocket: $c->unixSocket,
            user: $c->user,
            password: $c->password,
            charset: $c->charset,
            connectTimeout: $c->connectTimeout > 0 ? min($c->connectTimeout, 5.0) : 5.0,
            queryTimeout: 5.0,
            tls: $c->tls,
            serverPublicKey: $c->serverPublicKey,
            killQueryOnTimeout: false,
        );
        EventLoop::queue(static function () use ($config, $id): void {
            try {
                $killer = SocketConnection::connect($config);
                try {
                    $killer->query('KILL QUERY ' . $id);
                } finally {
                    $killer->close();
                }
            } catch (\Throwable) {
                // Best effort: the server may already have ended the statement.
            }
        });
    }
}
