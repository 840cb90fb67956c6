<?php

declare(strict_types=1);

/*
 * Per-query cost of Spindle\Database\Pdo against native PDO (pdo_mysql over mysqlnd), both over
 * TCP to the same MariaDB, in one run: a point select by primary key, a 20-row select, a
 * 1,000-row select (fetchAll) and an insert, each with emulated prepares (the default) and with
 * native (server-side) prepares. Every query is prepare() + execute() + fetch, as frameworks
 * issue them. The measured loops run inside a fiber, as a request handler does.
 *
 *   scripts/mariadb                                   # the private MariaDB it connects to
 *   php benchmarks/mysql-query.php                    # or: bash benchmarks/mysql-query.sh (JIT and no JIT)
 *   ITERATIONS=2 ROUNDS=5 php benchmarks/mysql-query.php
 *
 * Two tables: the wall time per query (the server's work and the loopback included, so a busy
 * machine inflates both sides) and this process's CPU per query (getrusage), the client's cost
 * alone, steadier on a shared machine.
 *
 * Env: ITERATIONS (scale factor for the per-case counts, default 1), ROUNDS (default 3: every
 * driver runs every case ROUNDS times, interleaved, and the best round counts),
 * SPINDLE_MYSQL_DIR (where scripts/mariadb wrote its env file), ONLY (a case name, to profile
 * one case), DRIVERS (comma list of driver labels to run, for profiling).
 */

require __DIR__ . '/../vendor/autoload.php';

use Revolt\EventLoop;
use Spindle\Database\Pdo as SpindlePdo;

if (!extension_loaded('pdo_mysql')) {
    fwrite(STDERR, "mysql-query.php needs the native pdo_mysql extension for the comparison (apt-get install php8.2-mysql)\n");
    exit(1);
}

/** @return array<string, string> */
function mysqlEnv(): array
{
    $dir = getenv('SPINDLE_MYSQL_DIR') ?: '/tmp/spindle-mariadb';
    $env = [];
    foreach (@file("$dir/env", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
        if (preg_match('/^(?:export\s+)?([A-Z_]+)=(.*)$/', $line, $m) === 1) {
            $env[$m[1]] = $m[2];
        }
    }
    foreach (['MYSQL_HOST', 'MYSQL_PORT', 'MYSQL_USER', 'MYSQL_PASSWORD', 'MYSQL_DATABASE'] as $key) {
        $value = getenv($key);
        if ($value !== false && $value !== '') {
            $env[$key] = $value;
        }
        if (!isset($env[$key])) {
            fwrite(STDERR, "No MySQL settings ($key): run scripts/mariadb first, or set MYSQL_HOST/PORT/USER/PASSWORD/DATABASE\n");
            exit(1);
        }
    }

    return $env;
}

function cpuModel(): string
{
    foreach (@file('/proc/cpuinfo') ?: [] as $line) {
        if (str_starts_with($line, 'model name')) {
            return trim(substr($line, strpos($line, ':') + 1)) . ' (' . trim((string) shell_exec('nproc')) . ' cores)';
        }
    }

    return '?';
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

$env = mysqlEnv();
$dsn = sprintf('mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4', $env['MYSQL_HOST'], (int) $env['MYSQL_PORT'], $env['MYSQL_DATABASE']);
$scale = (float) (getenv('ITERATIONS') ?: 1);
$rounds = max(1, (int) (getenv('ROUNDS') ?: 3));
$only = getenv('ONLY') ?: null;
$onlyDrivers = getenv('DRIVERS') ? explode(',', (string) getenv('DRIVERS')) : null;
$rowCount = 10000;

$connect = static function (string $class, bool $emulate, int $keep = 0) use ($dsn, $env): PDO {
    return new $class($dsn, $env['MYSQL_USER'], $env['MYSQL_PASSWORD'], [
        PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
        PDO::ATTR_EMULATE_PREPARES => $emulate,
    ] + ($keep > 0 ? [SpindlePdo::ATTR_STATEMENT_CACHE => $keep] : []));
};

// ---- the data -------------------------------------------------------------------------------
$setup = $connect(PDO::class, true);
$setup->exec('DROP TABLE IF EXISTS bench_rows');
$setup->exec('DROP TABLE IF EXISTS bench_insert');
$schema = '(
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name VARCHAR(64) NOT NULL,
    email VARCHAR(128) NOT NULL,
    score INT NOT NULL,
    balance DECIMAL(12,2) NOT NULL,
    ratio DOUBLE NOT NULL,
    active TINYINT(1) NOT NULL,
    created_at DATETIME NOT NULL,
    note VARCHAR(255) NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4';
$setup->exec("CREATE TABLE bench_rows $schema");
$setup->exec("CREATE TABLE bench_insert $schema");
mt_srand(42);
$setup->beginTransaction();
for ($start = 1; $start <= $rowCount; $start += 500) {
    $values = [];
    for ($id = $start; $id < $start + 500 && $id <= $rowCount; ++$id) {
        $values[] = sprintf(
            "('user %d', 'user%d@example.com', %d, %d.%02d, %F, %d, '2024-%02d-%02d 12:%02d:%02d', %s)",
            $id, $id, mt_rand(0, 1000000), mt_rand(0, 99999), mt_rand(0, 99), mt_rand() / mt_getrandmax(), $id % 2,
            $id % 12 + 1, $id % 28 + 1, $id % 60, ($id * 7) % 60,
            $id % 5 === 0 ? 'NULL' : "'a note about user $id, long enough to look like a real column'",
        );
    }
    $setup->exec('INSERT INTO bench_rows (name, email, score, balance, ratio, active, created_at, note) VALUES ' . implode(',', $values));
}
$setup->commit();
$setup->query('ANALYZE TABLE bench_rows')->fetchAll();

// ---- the cases ------------------------------------------------------------------------------
/** @var array<string, array{label: string, iterations: int, run: Closure(PDO, int): mixed}> */
$cases = [
    'point' => [
        'label' => 'point select by PK',
        'iterations' => (int) (5000 * $scale),
        'run' => static function (PDO $pdo, int $i) use ($rowCount): mixed {
            $statement = $pdo->prepare('SELECT * FROM bench_rows WHERE id = ?');
            $statement->execute([($i * 7919) % $rowCount + 1]);

            return $statement->fetch(PDO::FETCH_ASSOC);
        },
    ],
    'rows20' => [
        'label' => '20-row select',
        'iterations' => (int) (3000 * $scale),
        'run' => static function (PDO $pdo, int $i) use ($rowCount): mixed {
            $first = ($i * 7919) % ($rowCount - 20) + 1;
            $statement = $pdo->prepare('SELECT * FROM bench_rows WHERE id BETWEEN ? AND ?');
            $statement->execute([$first, $first + 19]);

            return $statement->fetchAll(PDO::FETCH_ASSOC);
        },
    ],
    'rows1000' => [
        'label' => '1,000-row select (fetchAll)',
        'iterations' => (int) (300 * $scale),
        'run' => static function (PDO $pdo, int $i) use ($rowCount): mixed {
            $first = ($i * 7919) % ($rowCount - 1000) + 1;
            $statement = $pdo->prepare('SELECT * FROM bench_rows WHERE id BETWEEN ? AND ?');
            $statement->execute([$first, $first + 999]);

            return $statement->fetchAll(PDO::FETCH_ASSOC);
        },
    ],
    'insert' => [
        'label' => 'insert',
        'iterations' => (int) (2000 * $scale),
        'run' => static function (PDO $pdo, int $i): mixed {
            $statement = $pdo->prepare('INSERT INTO bench_insert (name, email, score, balance, ratio, active, created_at, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
            $statement->execute(["user $i", "user$i@example.com", $i, '12.50', 0.25, 1, '2024-01-02 03:04:05', null]);

            return $statement->rowCount();
        },
    ],
];
if ($only !== null) {
    $cases = array_intersect_key($cases, [$only => true]);
}

$drivers = [
    'native emulated' => [PDO::class, true],
    'Spindle emulated' => [SpindlePdo::class, true],
    'native prepared' => [PDO::class, false],
    'Spindle prepared' => [SpindlePdo::class, false],
    // What Laravel's pooled sessions under `spindle serve` do: statements kept (one EXECUTE a query).
    'Spindle prepared, kept' => [SpindlePdo::class, false, 256],
];
if ($onlyDrivers !== null) {
    $drivers = array_intersect_key($drivers, array_flip($onlyDrivers));
}

$connections = [];
foreach ($drivers as $label => [$class, $emulate]) {
    $keep = $drivers[$label][2] ?? 0;
    $connections[$label] = inFiber(static fn (): PDO => $connect($class, $emulate, $keep));
}

// Both drivers must give the same rows (emulated prepares: same PHP types too).
foreach ($cases as $name => $case) {
    if ($name === 'insert') {
        continue;
    }
    $answers = [];
    foreach ($connections as $label => $pdo) {
        $answers[$label] = inFiber(static fn (): mixed => ($case['run'])($pdo, 3));
    }
    foreach ([['native emulated', 'Spindle emulated'], ['native prepared', 'Spindle prepared']] as [$a, $b]) {
        if (isset($answers[$a], $answers[$b]) && $answers[$a] !== $answers[$b]) {
            fwrite(STDERR, "warning: $a and $b disagree on $name: " . json_encode([$answers[$a], $answers[$b]]) . "\n");
        }
    }
}

// ---- measure --------------------------------------------------------------------------------
/** @var array<string, array<string, float>> best µs per query, by case and driver */
$best = [];
/** @var array<string, array<string, float>> best client CPU µs per query (getrusage: user + system), by case and driver */
$bestCpu = [];
$cpuNow = static function (): float {
    $usage = getrusage();

    return $usage['ru_utime.tv_sec'] * 1e6 + $usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_sec'] * 1e6 + $usage['ru_stime.tv_usec'];
};
for ($round = 0; $round < $rounds; ++$round) {
    foreach ($cases as $name => $case) {
        foreach ($connections as $label => $pdo) {
            $n = max(1, $case['iterations']);
            $run = $case['run'];
            [$perQuery, $cpuPerQuery] = inFiber(static function () use ($run, $pdo, $n, $cpuNow): array {
                for ($i = 0, $warm = max(1, intdiv($n, 10)); $i < $warm; ++$i) {
                    $run($pdo, $i);
                }
                $started = hrtime(true);
                $cpuStarted = $cpuNow();
                for ($i = 0; $i < $n; ++$i) {
                    $run($pdo, $i);
                }

                return [(hrtime(true) - $started) / $n / 1000, ($cpuNow() - $cpuStarted) / $n];
            });
            $best[$name][$label] = min($best[$name][$label] ?? INF, $perQuery);
            $bestCpu[$name][$label] = min($bestCpu[$name][$label] ?? INF, $cpuPerQuery);
        }
    }
}

// ---- report ---------------------------------------------------------------------------------
$jit = function_exists('opcache_get_status') ? (opcache_get_status(false) ?: []) : [];
$jitOn = ($jit['jit']['on'] ?? false) === true;
$serverVersion = (string) $setup->getAttribute(PDO::ATTR_SERVER_VERSION);
printf(
    "PHP %s, OPcache %s, JIT %s; %s over TCP %s:%s; %d rows; best of %d rounds; CPU: %s\n\n",
    PHP_VERSION,
    ($jit['opcache_enabled'] ?? false) ? 'on' : 'off',
    $jitOn ? 'on (' . ini_get('opcache.jit') . ')' : 'off',
    $serverVersion,
    $env['MYSQL_HOST'],
    $env['MYSQL_PORT'],
    $rowCount,
    $rounds,
    cpuModel(),
);
$targets = ['point' => 1.1, 'rows1000' => 2.0];
$pairs = [['native emulated', 'Spindle emulated', 'emulated'], ['native prepared', 'Spindle prepared', 'native prep.'], ['native prepared', 'Spindle prepared, kept', 'kept']];
foreach (['wall time per query (the server and the network included)' => $best, 'client CPU per query (this process: getrusage user + system; the server not included)' => $bestCpu] as $title => $figures) {
    echo "$title:\n\n";
    echo "| query | iterations | native emulated µs | Spindle emulated µs | ratio | native prep. µs | Spindle prep. µs | ratio | native prep. µs | Spindle prep., statements kept µs | ratio | target |\n";
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
    foreach ($cases as $name => $case) {
        $cells = [$case['label'], (string) $case['iterations']];
        foreach ($pairs as [$native, $spindle]) {
            $a = $figures[$name][$native] ?? null;
            $b = $figures[$name][$spindle] ?? null;
            $cells[] = $a === null ? '-' : sprintf('%.1f', $a);
            $cells[] = $b === null ? '-' : sprintf('%.1f', $b);
            $ratio = $a !== null && $b !== null && $a > 0 ? $b / $a : null;
            $mark = $ratio !== null && isset($targets[$name]) ? ($ratio <= $targets[$name] ? ' ✓' : ' ✗') : '';
            $cells[] = $ratio === null ? '-' : sprintf('%.2fx%s', $ratio, $mark);
        }
        $cells[] = isset($targets[$name]) ? sprintf('≤ %.1fx', $targets[$name]) : '';
        echo '| ' . implode(' | ', $cells) . " |\n";
    }
    echo "\n";
}

$setup->exec('DROP TABLE IF EXISTS bench_rows');
$setup->exec('DROP TABLE IF EXISTS bench_insert');
