<?php

declare(strict_types=1);

/*
 * Spindle app for benchmarks/mysql-http.sh: the routes of mysql-users-routes.php through
 * Spindle\Database\Pdo, on a per-worker pool of connections (POOL_SIZE, default 8): each request
 * borrows one connection for its whole life, so requests of one worker never share one, and a
 * request waiting for MariaDB lets the others run. Settings: MYSQL_HOST/PORT/USER/PASSWORD/DATABASE
 * (or the env file scripts/mariadb writes).
 */

use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Pdo;
use Spindle\Database\Pool\ConnectionPool;
use Spindle\Database\Pool\PooledConnection;
use Spindle\Http\Request;
use Spindle\Http\Response;

$settings = require __DIR__ . '/mysql-settings.php';
$routes = require __DIR__ . '/mysql-users-routes.php';
$config = new ConnectionConfig(
    host: $settings['host'],
    port: $settings['port'],
    user: $settings['user'],
    password: $settings['password'],
    database: $settings['database'],
);
// One pool per worker: the app file runs once in each worker; connections open on first use.
$pool = new ConnectionPool(
    static fn (): SocketConnection => SocketConnection::connect($config),
    maxSize: (int) (getenv('POOL_SIZE') ?: 8),
    waitTimeout: 30.0,
);
$options = [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION];

return static function (Request $request) use ($pool, $routes, $options): Response {
    parse_str($request->query, $query);
    /** @var array<string, mixed> $query */
    [$status, $body] = $pool->with(
        static fn (PooledConnection $connection): array => $routes(Pdo::fromConnection($connection, $options), $request->path, $query),
    );

    return new Response($status, ['Content-Type' => 'application/json'], $body);
};
