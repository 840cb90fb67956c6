<?php

declare(strict_types=1);

/*
 * What a pooled PostgreSQL session's reset costs, and whether keeping prepared statements
 * across requests would pay (docs/database.md, "Sessions per worker", PostgreSQL). One session,
 * requests of K point selects by primary key (Spindle\Database\Pdo, server-side prepares as
 * pdo_pgsql and Laravel use them), each request followed by the reset a pool runs:
 *
 * - reparse:        every query a new statement (Parse + Bind + Describe + Execute), as Eloquent
 *                   issues them; reset = DISCARD ALL, then the setup again (2 round trips): what
 *                   Spindle does.
 * - kept in request: one statement per distinct SQL text within the request (a cache emptied by
 *                   the reset); reset as above.
 * - kept across:    one statement per SQL text for the session's life (a cache that survives
 *                   resets); reset = one query that leaves prepared statements alone: CLOSE ALL;
 *                   UNLISTEN *; SELECT pg_advisory_unlock_all(); DISCARD TEMP; DISCARD SEQUENCES;
 *                   RESET ALL; the setup.
 *
 * Figures per request: wall time, this process's CPU and the server backend's CPU
 * (/proc/<pid>/stat of the session's backend), best of ROUNDS interleaved rounds.
 *
 *   scripts/postgres
 *   php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M benchmarks/pgsql-reset.php
 *
 * Env: REQUESTS (per case and round, default 2000), ROUNDS (default 3), SPINDLE_PGSQL_DIR.
 */

require __DIR__ . '/../vendor/autoload.php';

use Revolt\EventLoop;
use Spindle\Database\Pdo as SpindlePdo;
use Spindle\Database\Pdo\PgsqlSession;
use Spindle\Database\Pgsql\Connection;
use Spindle\Database\Pgsql\ConnectionConfig;
use Spindle\Database\Pgsql\SslMode;

$dir = getenv('SPINDLE_PGSQL_DIR') ?: '/tmp/spindle-postgres';
$env = [];
foreach (@file("$dir/env", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
    if (preg_match('/^(?:export\s+)?([A-Z_]+)=(.*)$/', $line, $m) === 1) {
        $env[$m[1]] = $m[2];
    }
}
if (!isset($env['PGSQL_PORT'])) {
    fwrite(STDERR, "No PostgreSQL settings: run scripts/postgres first\n");
    exit(1);
}
$requests = max(1, (int) (getenv('REQUESTS') ?: 2000));
$rounds = max(1, (int) (getenv('ROUNDS') ?: 3));
$config = new ConnectionConfig(host: $env['PGSQL_HOST'], port: (int) $env['PGSQL_PORT'], user: $env['PGSQL_USER'],
    password: $env['PGSQL_PASSWORD'], database: $env['PGSQL_DATABASE'], sslMode: SslMode::Disable);
$setupSql = ["SET TIME ZONE 'UTC'", "SET search_path TO public", "SET application_name TO 'bench'"];

function inFiber(Closure $work): mixed
{
    $result = null;
    EventLoop::queue(static function () use ($work, &$result): void {
        $result = $work();
    });
    EventLoop::run();

    return $result;
}

function cpuMicros(): float
{
    $u = getrusage();

    return $u['ru_utime.tv_sec'] * 1e6 + $u['ru_utime.tv_usec'] + $u['ru_stime.tv_sec'] * 1e6 + $u['ru_stime.tv_usec'];
}

/** The backend's CPU time so far, in µs (utime + stime of /proc/<pid>/stat). */
function backendMicros(int $pid): float
{
    $stat = (string) file_get_contents("/proc/$pid/stat");
    $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));

    return ((int) $fields[11] + (int) $fields[12]) * 1e6 / 100; // clock ticks of 1/100 s (USER_HZ)
}

$session = inFiber(static fn (): PgsqlSession => new PgsqlSession(Connection::connect($config)));
$session->rememberSetup($setupSql);
$pdo = SpindlePdo::fromConnection($session, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$pid = $session->connectionId();
inFiber(static function () use ($pdo): void {
    $pdo->exec('CREATE TABLE IF NOT EXISTS bench_pg_reset (id int PRIMARY KEY, name text, score int, created_at timestamp)');
    $pdo->exec("INSERT INTO bench_pg_reset SELECT i, 'user ' || i, i * 7, TIMESTAMP '2024-01-01' + i * INTERVAL '1 minute' FROM generate_series(1, 1000) i ON CONFLICT DO NOTHING");
    $pdo->exec('ANALYZE bench_pg_reset');
});
$sql = 'SELECT id, name, score, created_at FROM bench_pg_reset WHERE id = ?';
$keepReset = 'CLOSE ALL; UNLISTEN *; SELECT pg_advisory_unlock_all(); DISCARD TEMP; DISCARD SEQUENCES; RESET ALL; ' . implode('; ', $setupSql);

$policies = [
    'reparse' => static function (int $k) use ($pdo, $session, $sql): void {
        for ($i = 0; $i < $k; ++$i) {
            $statement = $pdo->prepare($sql);
            $statement->execute([$i % 1000 + 1]);
            $statement->fetch(PDO::FETCH_ASSOC);
            unset($statement);
        }
        $session->resetSession();
    },
    'kept in request' => static function (int $k) use ($pdo, $session, $sql): void {
        $statement = $pdo->prepare($sql);
        for ($i = 0; $i < $k; ++$i) {
            $statement->execute([$i % 1000 + 1]);
            $statement->fetch(PDO::FETCH_ASSOC);
        }
        unset($statement);
        $session->resetSession();
    },
    'kept across' => static function (int $k) use ($pdo, $session, $sql, $keepReset): void {
        static $statement = null;
        $statement ??= $pdo->prepare($sql);
        for ($i = 0; $i < $k; ++$i) {
            $statement->execute([$i % 1000 + 1]);
            $statement->fetch(PDO::FETCH_ASSOC);
        }
        $session->query($keepReset);
    },
];

$best = [];
foreach ([1, 3, 100] as $k) {
    $n = $k === 100 ? max(1, intdiv($requests, 20)) : $requests;
    for ($round = 0; $round < $rounds; ++$round) {
        foreach ($policies as $label => $policy) {
            [$wall, $cpu, $server] = inFiber(static function () use ($policy, $k, $n, $pid): array {
                for ($i = 0; $i < max(1, intdiv($n, 10)); ++$i) {
                    $policy($k);
                }
                $t = hrtime(true);
                $c = cpuMicros();
                $s = backendMicros($pid);
                for ($i = 0; $i < $n; ++$i) {
                    $policy($k);
                }

                return [(hrtime(true) - $t) / 1e3 / $n, (cpuMicros() - $c) / $n, (backendMicros($pid) - $s) / $n];
            });
            $entry = $best[$k][$label] ?? [INF, INF, INF];
            $best[$k][$label] = [min($entry[0], $wall), min($entry[1], $cpu), min($entry[2], $server)];
        }
    }
}

printf("%-26s %-16s %12s %12s %12s\n", 'request', 'statements', 'wall µs', 'client CPU µs', 'server CPU µs');
foreach ($best as $k => $byPolicy) {
    foreach ($byPolicy as $label => [$wall, $cpu, $server]) {
        printf("%-26s %-16s %12.0f %12.0f %12.0f\n", "$k point select(s) + reset", $label, $wall, $cpu, $server);
    }
}
