<?php

declare(strict_types=1);

/*
 * The memory of a worker that streams a large result unbuffered (MYSQL_ATTR_USE_BUFFERED_QUERY
 * off): native pdo_mysql against Spindle\Database\Pdo, each in a process of its own, against
 * the private MariaDB of scripts/mariadb. The rows come from MariaDB's SEQUENCE engine, so no
 * table is filled first.
 *
 *     php benchmarks/pdo-unbuffered-memory.php [MiB, default 1024] [row bytes, default 1000]
 *
 * Prints, per side: rows and bytes read, seconds, PHP's peak memory (memory_get_peak_usage)
 * and the process's peak resident size (getrusage ru_maxrss), and with fibers: two streams read
 * at the same time by two fibers of one Spindle worker.
 */

require dirname(__DIR__) . '/vendor/autoload.php';

$env = [];
foreach (file((getenv('SPINDLE_MYSQL_DIR') ?: '/tmp/spindle-mariadb') . '/env', FILE_IGNORE_NEW_LINES) ?: [] as $line) {
    if (preg_match('/^export ([A-Z0-9_]+)=(.*)$/', $line, $m) === 1) {
        $env[$m[1]] = $m[2];
    }
}
$dsn = sprintf('mysql:host=%s;port=%s;dbname=%s', $env['MYSQL_HOST'], $env['MYSQL_PORT'], $env['MYSQL_DATABASE']);

if (($argv[1] ?? '') === '--side') {
    [, , $side, $rows, $width] = $argv;
    $sql = sprintf("SELECT seq, REPEAT('x', %d) AS pad FROM seq_1_to_%d", (int) $width, (int) $rows);
    $options = [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, 1000 => false];
    $open = static fn (): PDO => $side === 'native'
        ? new PDO($dsn, $env['MYSQL_USER'], $env['MYSQL_PASSWORD'], $options)
        : new Spindle\Database\Pdo($dsn, $env['MYSQL_USER'], $env['MYSQL_PASSWORD'], $options);
    $read = static function (PDO $db) use ($sql): array {
        $count = 0;
        $bytes = 0;
        foreach ($db->query($sql, PDO::FETCH_NUM) as $row) {
            ++$count;
            $bytes += strlen((string) $row[1]) + 8;
        }

        return [$count, $bytes];
    };
    $start = hrtime(true);
    if ($side === 'spindle-2-fibers') {
        $results = [];
        $fibers = [];
        foreach ([0, 1] as $i) {
            $fibers[$i] = new Fiber(static function () use ($open, $read, &$results, $i): void {
                $results[$i] = $read($open());
            });
        }
        foreach ($fibers as $fiber) {
            $fiber->start();
        }
        Revolt\EventLoop::run();
        [$count, $bytes] = [$results[0][0] + $results[1][0], $results[0][1] + $results[1][1]];
    } else {
        [$count, $bytes] = $read($open());
    }
    $seconds = (hrtime(true) - $start) / 1e9;
    printf(
        "%-17s %9d rows %7.0f MiB in %5.1f s   PHP peak %6.1f MiB   process peak RSS %6.1f MiB\n",
        $side,
        $count,
        $bytes / 1048576,
        $seconds,
        memory_get_peak_usage() / 1048576,
        getrusage()['ru_maxrss'] / 1024,
    );
    exit(0);
}

$mib = (int) ($argv[1] ?? 1024);
$width = (int) ($argv[2] ?? 1000);
$rows = intdiv($mib * 1048576, $width + 8);
printf("Streaming %d MiB (%d rows of %d bytes), unbuffered, one process per line:\n", $mib, $rows, $width);
foreach (['native', 'spindle', 'spindle-2-fibers'] as $side) {
    passthru(sprintf('%s %s --side %s %d %d', escapeshellarg(PHP_BINARY), escapeshellarg(__FILE__), $side, $rows, $width));
}
