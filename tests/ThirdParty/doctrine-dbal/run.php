<?php

declare(strict_types=1);

/*
 * Runs Doctrine DBAL's functional tests (tests/Functional) against the private PostgreSQL of
 * scripts/postgres through one driver, and prints every test's outcome as JSON:
 *
 *     php tests/ThirdParty/doctrine-dbal/run.php native|spindle [--statements=unnamed|named|emulated]
 *         [--in-fiber] [PHPUnit options, e.g. --filter X]
 *
 * native: DBAL's pdo_pgsql driver on PHP's PDO; spindle: Spindle\Bridge\Doctrine\PgsqlDriver on
 * Spindle\Database\Pdo. --statements: how statements reach the server (bootstrap.php; unnamed,
 * DBAL's default, unless given). --in-fiber: PHPUnit runs inside a fiber of the event loop
 * (phpunit-in-fiber.php), as code runs under `spindle serve`. The run has a test database of its own
 * (spindle_dbal_<side>_<pid>), which the tests create and this script drops at the end, so runs from
 * several checkouts do not meet. PHPUnit's output goes to a log file, named in the JSON.
 */

$side = $argv[1] ?? '';
$options = array_slice($argv, 2);
$statements = 'unnamed';
$inFiber = false;
while (isset($options[0]) && preg_match('/^--(statements=(.*)|in-fiber)$/', $options[0], $m) === 1) {
    if ($m[1] === 'in-fiber') {
        $inFiber = true;
    } else {
        $statements = $m[2];
    }
    array_shift($options);
}
if (!in_array($side, ['native', 'spindle'], true) || !in_array($statements, ['unnamed', 'named', 'emulated'], true)) {
    fwrite(STDERR, "usage: php run.php native|spindle [--statements=unnamed|named|emulated] [--in-fiber] [PHPUnit options]\n");
    exit(2);
}
if (!is_file(__DIR__ . '/vendor/autoload.php')) {
    fwrite(STDERR, "Install the suite first: scripts/composer-fixture tests/ThirdParty/doctrine-dbal install (scripts/test does).\n");
    exit(2);
}

$database = 'spindle_dbal_' . $side . '_' . getmypid();
$work = sys_get_temp_dir() . '/spindle-dbal-' . $side . '-' . getmypid();
if (!is_dir($work) && !mkdir($work, 0700, true)) {
    fwrite(STDERR, "cannot create $work\n");
    exit(1);
}
$results = $work . '/results.json';
$log = $work . '/phpunit.log';
$env = getenv() + [];
$env['SPINDLE_DBAL_SIDE'] = $side;
$env['SPINDLE_DBAL_DATABASE'] = $database;
$env['SPINDLE_DBAL_RESULTS'] = $results;
$env['SPINDLE_DBAL_STATEMENTS'] = $statements;

$started = microtime(true);
$command = [PHP_BINARY, __DIR__ . ($inFiber ? '/phpunit-in-fiber.php' : '/vendor/bin/phpunit'), '--configuration', __DIR__ . '/phpunit.xml', ...$options];
$process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'w'], 2 => ['file', $log, 'a']], $pipes, __DIR__, $env);
$status = is_resource($process) ? proc_close($process) : -1;
$seconds = microtime(true) - $started;

dropDatabase($database);

$decoded = is_file($results) ? json_decode((string) file_get_contents($results), true) : null;
if (!is_array($decoded)) {
    fwrite(STDERR, "PHPUnit (exit status $status) wrote no results; its output is in $log\n");
    exit(1);
}
echo json_encode(['results' => $decoded, 'log' => $log, 'work' => $work, 'seconds' => round($seconds, 1)], JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR), "\n";

/** Drops the run's test database, natively and as the tests' privileged user (bootstrap.php). */
function dropDatabase(string $database): void
{
    $dir = getenv('SPINDLE_PGSQL_DIR');
    $file = ($dir === false || $dir === '' ? '/tmp/spindle-postgres' : $dir) . '/env';
    $env = [];
    foreach (is_file($file) ? (array) file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : [] as $line) {
        if (preg_match('/^(?:export\s+)?([A-Z_0-9]+)=(.*)$/', (string) $line, $m) === 1) {
            $env[$m[1]] = $m[2];
        }
    }
    try {
        $pdo = new PDO(
            sprintf('pgsql:host=%s;port=%s;dbname=postgres', $env['PGSQL_HOST'] ?? '', $env['PGSQL_PORT'] ?? ''),
            $env['PGSQL_SUPERUSER'] ?? 'postgres',
            $env['PGSQL_SUPERUSER_PASSWORD'] ?? 'postgres',
            [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION],
        );
        $pdo->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '$database' AND pid <> pg_backend_pid()");
        $pdo->exec("DROP DATABASE IF EXISTS $database");
    } catch (PDOException $e) {
        fwrite(STDERR, "could not drop the test database $database: {$e->getMessage()}\n");
    }
}
