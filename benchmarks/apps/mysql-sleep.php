<?php

declare(strict_types=1);

/*
 * Benchmark app for benchmarks/mysql-concurrency.sh: every request runs SELECT SLEEP(n) through
 * Spindle\Database\Pdo on a connection from a per-worker pool of 10, so up to 10 requests wait
 * for the server at once in one worker. Settings: MYSQL_HOST/PORT/USER/PASSWORD/DATABASE (or the
 * env file scripts/mariadb writes), SLEEP_SECONDS (default 1), POOL_SIZE (default 10).
 */

use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Pdo;
use Spindle\Database\Pool\ConnectionPool;
use Spindle\Database\Pool\PooledConnection;

$settings = require __DIR__ . '/mysql-settings.php';
$config = new ConnectionConfig(
    host: $settings['host'],
    port: $settings['port'],
    user: $settings['user'],
    password: $settings['password'],
    database: $settings['database'],
);
$sleep = (float) (getenv('SLEEP_SECONDS') ?: 1);
// One pool per worker: the app file is loaded once in each worker; connections open on first use.
$pool = new ConnectionPool(
    static fn (): SocketConnection => SocketConnection::connect($config),
    maxSize: (int) (getenv('POOL_SIZE') ?: 10),
    waitTimeout: 30.0,
);

return static function () use ($pool, $sleep): string {
    $value = $pool->with(static function (PooledConnection $connection) use ($sleep): mixed {
        $pdo = Pdo::fromConnection($connection, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);

        // The Pdo gives the connection back to the pool when it is gone (with() releases it too).
        return $pdo->query(sprintf('SELECT SLEEP(%F)', $sleep))->fetchColumn();
    });

    return 'slept ' . $value;
};
