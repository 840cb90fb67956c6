<?php

declare(strict_types=1);

/*
 * Runs PHP's own pdo and pdo_mysql phpt tests (tests/Phpt/php-src, from PHP 8.2's source) against
 * the private MariaDB of scripts/mariadb, or the pdo and pdo_pgsql ones against the private
 * PostgreSQL of scripts/postgres (--pgsql), either natively or with PDO routed to
 * Spindle\Database\Pdo, and prints the outcome of every test as JSON ({"ext/pdo/tests/x.phpt":
 * "PASS", …}).
 *
 *     php tests/Phpt/run.php native|spindle [--pgsql] [test paths relative to php-src…]
 *
 * Routing copies the tests to a temporary directory and rewrites them: every `new PDO(` and
 * `extends PDO` names Spindle\Database\Pdo, as do the test helpers' `new $classname(` when the
 * class asked for is PDO; an autoloader is prepended to every test script (tests/Phpt/prepend.php). Nothing else
 * in a test changes. pdo_mysql and pdo_pgsql stay loaded (their PDO::MYSQL_ATTR_* and
 * PDO::PGSQL_* constants are used by the tests, and Spindle's Pdo does not need them).
 *
 * Each side has a database of its own (spindle_phpt_native, spindle_phpt_spindle, on each server),
 * so both runs can go at the same time; within one run the tests share table names and run one by
 * one.
 */

$side = $argv[1] ?? '';
if (!in_array($side, ['native', 'spindle'], true)) {
    fwrite(STDERR, "usage: php tests/Phpt/run.php native|spindle [tests…]\n");
    exit(2);
}
$only = array_slice($argv, 2);
$pgsql = in_array('--pgsql', $only, true);
$only = array_values(array_diff($only, ['--pgsql']));
$driver = $pgsql ? 'pdo_pgsql' : 'pdo_mysql';

$root = dirname(__DIR__, 2);
$source = __DIR__ . '/php-src';

$work = sys_get_temp_dir() . '/spindle-phpt-' . ($pgsql ? 'pgsql-' : '') . $side . '-' . getmypid();
copyTree($source . '/ext/pdo/tests', $work . '/ext/pdo/tests', $side === 'spindle');
copyTree($source . '/ext/' . $driver . '/tests', $work . '/ext/' . $driver . '/tests', $side === 'spindle');
copy($source . '/run-tests.php', $work . '/run-tests.php');

$database = 'spindle_phpt_' . $side;
$junit = $work . '/junit.xml';
$testEnv = $pgsql ? pgsqlTestEnv($database) : mysqlTestEnv($database);
$testEnv += [
    'REDIR_TEST_DIR' => $work . '/ext/pdo/tests/',
    'TEST_PHP_EXECUTABLE' => PHP_BINARY,
    'TEST_PHP_JUNIT' => $junit,
    'NO_INTERACTION' => '1',
    'SKIP_ONLINE_TESTS' => '1',
    'SKIP_SLOW_TESTS' => '1',
    'PATH' => (string) getenv('PATH'),
    'TMPDIR' => sys_get_temp_dir(),
    'PHP_INI_SCAN_DIR' => testExtensions($work),
];

$command = [PHP_BINARY, $work . '/run-tests.php', '-q', '--no-color', '--set-timeout', '60'];
if ($side === 'spindle') {
    array_push($command, '-d', 'auto_prepend_file=' . __DIR__ . '/prepend.php');
}
if ($only === []) {
    // ext/pdo_mysql/tests/common.phpt (ext/pdo_pgsql's likewise) redirects to ext/pdo/tests:
    // the generic PDO tests run for MySQL under the names ext/pdo_mysql/tests/pdo_005.phpt and
    // so on.
    $command[] = $work . '/ext/' . $driver . '/tests';
} else {
    foreach ($only as $test) {
        $command[] = $work . '/' . $test;
    }
}

$process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $work . '/run-tests.log', 'w'], 2 => ['file', $work . '/run-tests.log', 'a']], $pipes, $work, $testEnv);
if (!is_resource($process)) {
    fwrite(STDERR, "cannot start run-tests.php\n");
    exit(1);
}
proc_close($process);

if (!is_file($junit)) {
    fwrite(STDERR, "run-tests.php wrote no results; its output is in $work/run-tests.log\n");
    exit(1);
}
$results = junitResults($junit, $work);
ksort($results);
echo json_encode(['work' => $work, 'results' => $results], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";

/**
 * A scan directory holding only the ini files of the extensions these tests use (both sides
 * alike): every phpt starts two PHP processes (SKIPIF and the test), and Debian's 38 extensions
 * make each start 75 ms instead of 45 ms, a third of the run.
 */
function testExtensions(string $work): string
{
    $directory = $work . '/conf.d';
    @mkdir($directory, 0o777, true);
    $wanted = ['mysqlnd', 'pdo', 'pdo_mysql', 'pdo_pgsql', 'pgsql', 'mbstring', 'ctype', 'iconv', 'posix', 'sockets', 'tokenizer', 'xml', 'simplexml', 'dom', 'opcache'];
    foreach (explode(',', (string) php_ini_scanned_files()) as $file) {
        $file = trim($file);
        if ($file !== '' && in_array(preg_replace('/^\d+-|\.ini$/', '', basename($file)), $wanted, true)) {
            @symlink($file, $directory . '/' . basename($file));
        }
    }

    return $directory;
}

/** @return array<string, string> the tests' settings for the private MariaDB */
function mysqlTestEnv(string $database): array
{
    $env = envFile((getenv('SPINDLE_MYSQL_DIR') ?: '/tmp/spindle-mariadb') . '/env', 'scripts/mariadb');
    $dsn = sprintf('mysql:host=%s;port=%s;dbname=%s', $env['MYSQL_HOST'], $env['MYSQL_PORT'], $database);

    return [
        'PDO_MYSQL_TEST_DSN' => $dsn,
        'PDO_MYSQL_TEST_USER' => $env['MYSQL_USER'],
        'PDO_MYSQL_TEST_PASS' => $env['MYSQL_PASSWORD'],
        'PDO_MYSQL_TEST_HOST' => $env['MYSQL_HOST'],
        'PDO_MYSQL_TEST_PORT' => $env['MYSQL_PORT'],
        'PDO_MYSQL_TEST_DB' => $database,
        'PDO_MYSQL_TEST_SOCKET' => $env['MYSQL_SOCKET'],
        'PDOTEST_DSN' => $dsn,
        'PDOTEST_USER' => $env['MYSQL_USER'],
        'PDOTEST_PASS' => $env['MYSQL_PASSWORD'],
    ];
}

/**
 * The tests' settings for the private PostgreSQL: ext/pdo_pgsql's config.inc and common.phpt
 * read PDO_PGSQL_TEST_DSN (user and password in the DSN, as its tests expect); the generic
 * tests read PDOTEST_*.
 *
 * @return array<string, string>
 */
function pgsqlTestEnv(string $database): array
{
    $env = envFile((getenv('SPINDLE_PGSQL_DIR') ?: '/tmp/spindle-postgres') . '/env', 'scripts/postgres');
    $dsn = sprintf('pgsql:host=%s port=%s dbname=%s user=%s password=%s', $env['PGSQL_HOST'], $env['PGSQL_PORT'], $database, $env['PGSQL_USER'], $env['PGSQL_PASSWORD']);

    return [
        'PDO_PGSQL_TEST_DSN' => $dsn,
        'PDOTEST_DSN' => $dsn,
        'PDOTEST_USER' => $env['PGSQL_USER'],
        'PDOTEST_PASS' => $env['PGSQL_PASSWORD'],
    ];
}

/** @return array<string, string> */
function envFile(string $file, string $script): array
{
    if (!is_file($file)) {
        fwrite(STDERR, "no $file: start the test database with $script\n");
        exit(1);
    }
    $env = [];
    foreach (file($file, FILE_IGNORE_NEW_LINES) ?: [] as $line) {
        if (preg_match('/^export ([A-Z0-9_]+)=(.*)$/', $line, $m) === 1) {
            $env[$m[1]] = $m[2];
        }
    }

    return $env;
}

function copyTree(string $from, string $to, bool $route): void
{
    if (!is_dir($to)) {
        mkdir($to, 0777, true);
    }
    foreach (scandir($from) ?: [] as $name) {
        if ($name === '.' || $name === '..') {
            continue;
        }
        $path = $from . '/' . $name;
        if (is_dir($path)) {
            copyTree($path, $to . '/' . $name, $route);
            continue;
        }
        $text = (string) file_get_contents($path);
        if ($route && preg_match('/\.(phpt|inc)$/', $name) === 1) {
            $text = route($text);
        }
        file_put_contents($to . '/' . $name, $text);
    }
}

/** The rewrite that routes a test to Spindle\Database\Pdo. */
function route(string $text): string
{
    $text = (string) preg_replace('/\bnew\s+PDO\s*\(/', 'new \\Spindle\\Database\\Pdo(', $text);
    $text = (string) preg_replace('/\bextends\s+PDO\b(?![A-Za-z_])/', 'extends \\Spindle\\Database\\Pdo', $text);

    // The helpers' factory($classname = 'PDO', …): new $classname(…)
    return str_replace('new $classname(', 'new (strcasecmp($classname, \'PDO\') === 0 ? \\Spindle\\Database\\Pdo::class : $classname)(', $text);
}

/** @return array<string, string> test path (relative to php-src) => PASS, FAIL, SKIP, BORK… */
function junitResults(string $file, string $work): array
{
    $xml = simplexml_load_file($file);
    if ($xml === false) {
        fwrite(STDERR, "unreadable $file\n");
        exit(1);
    }
    $results = [];
    foreach ($xml->xpath('//testcase') ?: [] as $case) {
        $name = (string) $case['name'];
        // run-tests.php names a case "<path relative to the cwd or absolute>=<title>"? It uses the file.
        $path = preg_replace('/^.*?(ext\/pdo(?:_mysql|_pgsql)?\/tests\/[^\s]+\.phpt).*$/s', '$1', (string) ($case['file'] ?? $name)) ?? $name;
        if (!str_ends_with($path, '.phpt')) {
            $path = preg_replace('/^.*?(ext\/pdo(?:_mysql|_pgsql)?\/tests\/[^\s]+\.phpt).*$/s', '$1', $name) ?? $name;
        }
        $status = 'PASS';
        if (isset($case->failure)) {
            $status = (string) ($case->failure['type'] ?? 'FAIL');
        } elseif (isset($case->error)) {
            $status = (string) ($case->error['type'] ?? 'BORK');
        } elseif (isset($case->skipped)) {
            $status = 'SKIP';
        } elseif (isset($case->warning)) {
            $status = 'WARN';
        }
        $results[$path] = $status;
    }
    unset($work);

    return $results;
}
