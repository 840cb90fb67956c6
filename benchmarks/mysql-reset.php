<?php

declare(strict_types=1);

/*
 * What a pooled MySQL session costs per request when the request ends with a reset, against the
 * same request ending without one because it only read (docs/database.md, "Unless the request
 * only read"). One SocketConnection set up as Laravel's connector sets up a pooled session
 * (use, set names, sql_mode, remembered for the resets), statements kept (256), changes tracked
 * (SocketConnection::trackSessionChanges()). A request = one Eloquent-style point select by
 * primary key (prepare, execute, close: the prepare answered by the statement cache when the
 * session kept it), then:
 *
 * - reset: SocketConnection::resetSession() (COM_RESET_CONNECTION, then the setup as one
 *          multi-statement query; the next request prepares again): every request before
 *          resets were skipped;
 * - kept:  SocketConnection::resetSessionIfChanged(), which finds nothing changed.
 *
 * Figures per request: this process's CPU (getrusage), mariadbd's CPU (/proc/<pid>/stat of the
 * private MariaDB, which other clients may use too: interleaved rounds, every round listed) and
 * the wall time.
 *
 *   scripts/mariadb
 *   php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M benchmarks/mysql-reset.php
 *
 * Env: REQUESTS (per case and round, default 3000), ROUNDS (default 4), SPINDLE_MYSQL_DIR.
 * Creates and drops the table bench_reset.
 */

require __DIR__ . '/../vendor/autoload.php';

use Revolt\EventLoop;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Mysql\StatementCacheStats;

$dir = getenv('SPINDLE_MYSQL_DIR') ?: '/tmp/spindle-mariadb';
$env = [];
foreach (@file("$dir/env", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
    if (preg_match('/^(?:export\s+)?([A-Z_]+)=(.*)$/', $line, $m) === 1) {
        $env[$m[1]] = $m[2];
    }
}
$pidFile = "$dir/mysqld.pid";
if (!isset($env['MYSQL_PORT']) || !is_file($pidFile)) {
    fwrite(STDERR, "No private MariaDB in $dir: run scripts/mariadb first\n");
    exit(1);
}
$serverPid = (int) trim((string) file_get_contents($pidFile));
$requests = max(1, (int) (getenv('REQUESTS') ?: 3000));
$rounds = max(1, (int) (getenv('ROUNDS') ?: 4));
$hz = 100;

/** CPU time of $pid in µs (utime + stime, clock ticks of 1/$hz s). */
$serverCpu = static function () use ($serverPid, $hz): float {
    $stat = (string) file_get_contents("/proc/$serverPid/stat");
    $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));

    return ((int) $fields[11] + (int) $fields[12]) * 1e6 / $hz;
};
$clientCpu = static function (): float {
    $usage = getrusage();

    return $usage['ru_utime.tv_sec'] * 1e6 + $usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_sec'] * 1e6 + $usage['ru_stime.tv_usec'];
};

$figures = ['reset' => [], 'kept' => []];
EventLoop::queue(static function () use ($env, $requests, $rounds, $serverCpu, $clientCpu, &$figures): void {
    $connection = SocketConnection::connect(new ConnectionConfig(
        host: $env['MYSQL_HOST'] ?? '127.0.0.1',
        port: (int) $env['MYSQL_PORT'],
        user: $env['MYSQL_USER'] ?? 'spindle',
        password: $env['MYSQL_PASSWORD'] ?? '',
        database: $env['MYSQL_DATABASE'] ?? 'spindle_test',
    ));
    $connection->query('CREATE TABLE IF NOT EXISTS bench_reset (id INT PRIMARY KEY, name VARCHAR(64), email VARCHAR(128), created_at DATETIME)');
    $connection->query("INSERT IGNORE INTO bench_reset VALUES (1, 'user 1', 'user1@example.com', '2024-01-02 03:04:05')");
    $connection->keepStatements(256, new StatementCacheStats());
    $setup = [
        'use `' . ($env['MYSQL_DATABASE'] ?? 'spindle_test') . '`',
        "set names 'utf8mb4' collate 'utf8mb4_unicode_ci'",
        "set session sql_mode='ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'",
    ];
    foreach ($setup as $sql) {
        $connection->query($sql);
    }
    $connection->rememberSetup($setup);
    if (!$connection->trackSessionChanges()) {
        throw new RuntimeException('The server does not track session changes (or has a stored function): nothing to compare');
    }
    $request = static function (bool $keep) use ($connection): void {
        $statement = $connection->prepare('select * from `bench_reset` where `bench_reset`.`id` = ? limit 1');
        $connection->execute($statement, [1]);
        $connection->closeStatement($statement);
        $keep ? $connection->resetSessionIfChanged() : $connection->resetSession();
    };
    for ($round = 0; $round < $rounds; ++$round) {
        foreach ($round % 2 === 0 ? ['reset', 'kept'] : ['kept', 'reset'] as $mode) {
            for ($i = 0; $i < 200; ++$i) {
                $request($mode === 'kept');
            }
            [$client, $server, $started] = [$clientCpu(), $serverCpu(), hrtime(true)];
            for ($i = 0; $i < $requests; ++$i) {
                $request($mode === 'kept');
            }
            $figures[$mode][] = [($clientCpu() - $client) / $requests, ($serverCpu() - $server) / $requests, (hrtime(true) - $started) / $requests / 1000];
        }
    }
    $connection->query('DROP TABLE IF EXISTS bench_reset');
    $connection->close();
});
EventLoop::run();

printf("PHP %s; %d requests per case and round, %d interleaved rounds; load at the end: %s\n\n", PHP_VERSION, $requests, $rounds, implode(' ', array_slice(explode(' ', (string) file_get_contents('/proc/loadavg')), 0, 3)));
echo "| request ends with | client CPU µs per request (each round) | mariadbd CPU µs per request | wall µs per request |\n";
echo "| --- | --- | --- | --- |\n";
foreach ($figures as $mode => $runs) {
    $column = static fn (int $k): string => implode(' ', array_map(static fn (array $r): string => sprintf('%.0f', $r[$k]), $runs));
    printf("| %s | %s | %s | %s |\n", $mode === 'reset' ? 'a reset (COM_RESET_CONNECTION + setup, prepared again)' : 'nothing (only read: kept, statements kept)', $column(0), $column(1), $column(2));
}
