<?php

declare(strict_types=1);

/*
 * Client CPU per query of Spindle\Database\Pdo against native PDO (pdo_pgsql over libpq), both
 * over TCP to the same PostgreSQL, in one process: a point select by primary key and a
 * 1,000-row select (fetchAll), with server-side prepares (pdo_pgsql's default) and emulated
 * ones. Every query is prepare() + execute() + fetch, as frameworks issue them, inside a fiber
 * as a request handler runs them. The figure is this process's CPU time (user + system,
 * getrusage) per query: the server's work is in other processes and counts for neither side.
 *
 *   scripts/postgres                              # the private PostgreSQL it connects to
 *   php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M \
 *       benchmarks/pgsql-query.php
 *
 * Env: ITERATIONS (scale factor for the per-case counts, default 1), ROUNDS (default 3, the
 * drivers interleaved, the best round counts), ONLY (a case: point, rows1000), DRIVERS (comma
 * list of driver labels), SPINDLE_PGSQL_DIR. For counts that load does not move, run one case
 * and one driver under callgrind at two iteration counts and take the difference per query:
 *
 *   ONLY=point DRIVERS='Spindle prepared' ROUNDS=1 ITERATIONS=0.2 valgrind --tool=callgrind php benchmarks/pgsql-query.php
 *   (and ITERATIONS=1.0; each count runs its queries plus a tenth as warm-up)
 *
 * Small counts vary with the moments the tracing JIT compiles; 0.2 and 1.0 settle them. One
 * thing callgrind cannot show as it is: before it suspends, Spindle looks once whether the
 * answer is there (a select() of the socket alone), and under valgrind (a client some 50 times
 * slower) how often it is depends on the server's pace: 57 to 94 % of the queries in six runs,
 * against 1 to 18 % in real runs; a wait it spares costs some 18 K instructions. For a count
 * that does not move, take one with every answer waited for: in Pgsql\Session::command() call
 * $this->transport->read($deadline, true) for the run (read() then skips that look). On
 * 2026-11-26, so counted, a prepared point select cost 101 K (117 K before; native 71 K, 1.42x;
 * 84 K with a blocking select() in place of the event loop's wait), an emulated one 90 K (103 K
 * before; native 35 K), and a 1,000-row fetchAll() 8.6 M with that look in place (native 5.8 M,
 * 1.49x).
 */

require __DIR__ . '/../vendor/autoload.php';

use Revolt\EventLoop;
use Spindle\Database\Pdo as SpindlePdo;

if (!extension_loaded('pdo_pgsql')) {
    fwrite(STDERR, "pgsql-query.php needs the native pdo_pgsql extension for the comparison (apt-get install php8.2-pgsql)\n");
    exit(1);
}

/** @return array<string, string> */
function pgsqlEnv(): array
{
    $dir = getenv('SPINDLE_PGSQL_DIR') ?: '/tmp/spindle-postgres';
    $env = [];
    foreach (@file("$dir/env", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
        if (preg_match('/^(?:export\s+)?([A-Z_]+)=(.*)$/', $line, $m) === 1) {
            $env[$m[1]] = $m[2];
        }
    }
    foreach (['PGSQL_HOST', 'PGSQL_PORT', 'PGSQL_USER', 'PGSQL_PASSWORD', 'PGSQL_DATABASE'] as $key) {
        if (!isset($env[$key])) {
            fwrite(STDERR, "No PostgreSQL settings ($key): run scripts/postgres first\n");
            exit(1);
        }
    }

    return $env;
}

/** Runs $work inside a fiber (as a request handler runs) and returns its result. */
function inFiber(Closure $work): mixed
{
    $result = null;
    EventLoop::queue(static function () use ($work, &$result): void {
        $result = $work();
    });
    EventLoop::run();

    return $result;
}

/** This process's CPU time so far, in µs. */
function cpuMicros(): float
{
    $usage = getrusage();

    return $usage['ru_utime.tv_sec'] * 1e6 + $usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_sec'] * 1e6 + $usage['ru_stime.tv_usec'];
}

$env = pgsqlEnv();
$dsn = sprintf('pgsql:host=%s;port=%d;dbname=%s', $env['PGSQL_HOST'], (int) $env['PGSQL_PORT'], $env['PGSQL_DATABASE']);
$scale = (float) (getenv('ITERATIONS') ?: 1);
$rounds = max(1, (int) (getenv('ROUNDS') ?: 3));
$only = getenv('ONLY') ?: null;
$onlyDrivers = getenv('DRIVERS') ? explode(',', (string) getenv('DRIVERS')) : null;
$rowCount = 10000;

$connect = static function (string $class, bool $emulate) use ($dsn, $env): PDO {
    return new $class($dsn, $env['PGSQL_USER'], $env['PGSQL_PASSWORD'], [
        PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        PDO::ATTR_EMULATE_PREPARES => $emulate,
    ]);
};

// ---- the data -------------------------------------------------------------------------------
$setup = $connect(PDO::class, false);
$setup->exec('DROP TABLE IF EXISTS bench_pg_rows');
$setup->exec('CREATE TABLE bench_pg_rows (
    id SERIAL PRIMARY KEY,
    name VARCHAR(64) NOT NULL,
    email VARCHAR(128) NOT NULL,
    score INT NOT NULL,
    balance NUMERIC(12,2) NOT NULL,
    ratio DOUBLE PRECISION NOT NULL,
    active BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    note VARCHAR(255) NULL
)');
$setup->exec("INSERT INTO bench_pg_rows (name, email, score, balance, ratio, active, created_at, note)
    SELECT 'user ' || i, 'user' || i || '@example.com', (i * 7919) % 1000000, ((i * 31) % 100000) / 100.0,
           ((i * 17) % 1000) / 1000.0, i % 2 = 0, TIMESTAMP '2024-01-01 12:00:00' + i * INTERVAL '1 minute',
           CASE WHEN i % 5 = 0 THEN NULL ELSE 'a note about user ' || i || ', long enough to look like a real column' END
    FROM generate_series(1, $rowCount) AS i");
$setup->exec('ANALYZE bench_pg_rows');

// ---- the cases ------------------------------------------------------------------------------
/** @var array<string, array{label: string, iterations: int, run: Closure(PDO, int): mixed}> */
$cases = [
    'point' => [
        'label' => 'point select by PK',
        'iterations' => (int) (5000 * $scale),
        'run' => static function (PDO $pdo, int $i) use ($rowCount): mixed {
            $statement = $pdo->prepare('SELECT * FROM bench_pg_rows WHERE id = ?');
            $statement->execute([($i * 7919) % $rowCount + 1]);

            return $statement->fetch(PDO::FETCH_ASSOC);
        },
    ],
    'rows1000' => [
        'label' => '1,000-row select (fetchAll)',
        'iterations' => (int) (300 * $scale),
        'run' => static function (PDO $pdo, int $i) use ($rowCount): mixed {
            $first = ($i * 7919) % ($rowCount - 1000) + 1;
            $statement = $pdo->prepare('SELECT * FROM bench_pg_rows WHERE id BETWEEN ? AND ?');
            $statement->execute([$first, $first + 999]);

            return $statement->fetchAll(PDO::FETCH_ASSOC);
        },
    ],
];
if ($only !== null) {
    $cases = array_intersect_key($cases, [$only => true]);
}

$drivers = [
    'native prepared' => [PDO::class, false],
    'Spindle prepared' => [SpindlePdo::class, false],
    'native emulated' => [PDO::class, true],
    'Spindle emulated' => [SpindlePdo::class, true],
];
if ($onlyDrivers !== null) {
    $drivers = array_intersect_key($drivers, array_flip($onlyDrivers));
}

$connections = [];
foreach ($drivers as $label => [$class, $emulate]) {
    $connections[$label] = inFiber(static fn (): PDO => $connect($class, $emulate));
}

// Both drivers must give the same rows, with the same PHP types.
foreach ($cases as $name => $case) {
    $answers = [];
    foreach ($connections as $label => $pdo) {
        $answers[$label] = inFiber(static fn (): mixed => ($case['run'])($pdo, 3));
    }
    foreach ([['native prepared', 'Spindle prepared'], ['native emulated', 'Spindle emulated']] as [$a, $b]) {
        if (isset($answers[$a], $answers[$b]) && $answers[$a] !== $answers[$b]) {
            fwrite(STDERR, "warning: $a and $b disagree on $name: " . json_encode([$answers[$a], $answers[$b]]) . "\n");
        }
    }
}

// ---- measure --------------------------------------------------------------------------------
/** @var array<string, array<string, float>> best CPU µs per query, by case and driver */
$best = [];
for ($round = 0; $round < $rounds; ++$round) {
    foreach ($cases as $name => $case) {
        foreach ($connections as $label => $pdo) {
            $n = max(1, $case['iterations']);
            $run = $case['run'];
            $perQuery = inFiber(static function () use ($run, $pdo, $n): float {
                for ($i = 0, $warm = max(1, intdiv($n, 10)); $i < $warm; ++$i) {
                    $run($pdo, $i);
                }
                $started = cpuMicros();
                for ($i = 0; $i < $n; ++$i) {
                    $run($pdo, $i);
                }

                return (cpuMicros() - $started) / $n;
            });
            $best[$name][$label] = min($best[$name][$label] ?? INF, $perQuery);
        }
    }
}

// ---- report ---------------------------------------------------------------------------------
$jit = function_exists('opcache_get_status') ? (opcache_get_status(false) ?: []) : [];
printf(
    "PHP %s, JIT %s; PostgreSQL %s over TCP %s:%s; %d rows; client CPU µs per query, best of %d rounds\n\n",
    PHP_VERSION,
    ($jit['jit']['on'] ?? false) === true ? 'on (' . ini_get('opcache.jit') . ')' : 'off',
    (string) $setup->getAttribute(PDO::ATTR_SERVER_VERSION),
    $env['PGSQL_HOST'],
    $env['PGSQL_PORT'],
    $rowCount,
    $rounds,
);
$targets = ['point' => 1.3, 'rows1000' => 1.5];
$pairs = [['native prepared', 'Spindle prepared'], ['native emulated', 'Spindle emulated']];
echo "| query | iterations | native prep. | Spindle prep. | ratio | native emul. | Spindle emul. | ratio | target |\n";
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
foreach ($cases as $name => $case) {
    $cells = [$case['label'], (string) $case['iterations']];
    foreach ($pairs as [$native, $spindle]) {
        $a = $best[$name][$native] ?? null;
        $b = $best[$name][$spindle] ?? null;
        $cells[] = $a === null ? '-' : sprintf('%.1f', $a);
        $cells[] = $b === null ? '-' : sprintf('%.1f', $b);
        $cells[] = $a === null || $b === null ? '-' : sprintf('%.2fx', $b / $a);
    }
    $cells[] = sprintf('≤ %.1fx', $targets[$name]);
    echo '| ' . implode(' | ', $cells) . " |\n";
}

$setup->exec('DROP TABLE IF EXISTS bench_pg_rows');
