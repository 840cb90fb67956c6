<?php

declare(strict_types=1);

/*
 * Points DBAL's functional tests at the private PostgreSQL of scripts/postgres, through one of two
 * drivers: SPINDLE_DBAL_SIDE=native uses DBAL's own pdo_pgsql driver (native PDO), =spindle uses
 * Spindle\Bridge\Doctrine\PgsqlDriver (Spindle\Database\Pdo) for every connection the tests make.
 * Both keep the driver name pdo_pgsql, so the tests take their pdo_pgsql paths on either side.
 *
 * SPINDLE_DBAL_STATEMENTS chooses how statements reach the server, on both sides alike: unnamed
 * (DBAL's default, PDO::PGSQL_ATTR_DISABLE_PREPARES: each query and its parameters sent together),
 * named (PGSQL_ATTR_DISABLE_PREPARES false: named server-side prepared statements) or emulated
 * (PDO::ATTR_EMULATE_PREPARES: parameters quoted into the SQL text).
 *
 * The tests read their connection from PHPUnit globals (tests/TestUtil.php): db_* for the test
 * database, which they drop and create again at the start, and tmpdb_* for the connection that
 * does so. SPINDLE_DBAL_DATABASE names the test database (run.php gives each run its own).
 */

require __DIR__ . '/vendor/autoload.php';

$side = getenv('SPINDLE_DBAL_SIDE');
$database = getenv('SPINDLE_DBAL_DATABASE');
$statements = getenv('SPINDLE_DBAL_STATEMENTS') ?: 'unnamed';
if (!in_array($side, ['native', 'spindle'], true) || !is_string($database) || preg_match('/^[a-z_0-9]+$/', $database) !== 1
    || !in_array($statements, ['unnamed', 'named', 'emulated'], true)) {
    fwrite(STDERR, "Set SPINDLE_DBAL_SIDE=native|spindle, SPINDLE_DBAL_DATABASE=<name> and SPINDLE_DBAL_STATEMENTS=unnamed|named|emulated (run.php does).\n");
    exit(2);
}

$dir = getenv('SPINDLE_PGSQL_DIR');
$file = ($dir === false || $dir === '' ? '/tmp/spindle-postgres' : $dir) . '/env';
$env = [];
foreach (is_file($file) ? (array) file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : [] as $line) {
    if (preg_match('/^(?:export\s+)?([A-Z_0-9]+)=(.*)$/', (string) $line, $m) === 1) {
        $env[$m[1]] = $m[2];
    }
}
foreach (['PGSQL_HOST', 'PGSQL_PORT'] as $key) {
    if (!isset($env[$key])) {
        fwrite(STDERR, "No PostgreSQL: $file lacks $key. Run scripts/postgres first.\n");
        exit(2);
    }
}

// As DBAL's own CI runs them: over TCP as the superuser postgres, with a password (some tests
// create extensions, some connect without a database name and expect the database "postgres",
// one expects a wrong password to be refused). scripts/postgres gives postgres the password
// "postgres" and names both in the env file; an env file written before it did lacks them.
$env += ['PGSQL_SUPERUSER' => 'postgres', 'PGSQL_SUPERUSER_PASSWORD' => 'postgres'];
foreach (['db_' => $database, 'tmpdb_' => 'postgres'] as $prefix => $dbname) {
    $GLOBALS[$prefix . 'driver'] = 'pdo_pgsql';
    $GLOBALS[$prefix . 'host'] = $env['PGSQL_HOST'];
    $GLOBALS[$prefix . 'port'] = $env['PGSQL_PORT'];
    $GLOBALS[$prefix . 'user'] = $env['PGSQL_SUPERUSER'];
    $GLOBALS[$prefix . 'password'] = $env['PGSQL_SUPERUSER_PASSWORD'];
    $GLOBALS[$prefix . 'dbname'] = $dbname;
    if ($side === 'spindle') {
        $GLOBALS[$prefix . 'driverClass'] = Spindle\Bridge\Doctrine\PgsqlDriver::class;
    }
}
// Unnamed: no option, as DBAL's driver is used by default (it turns PGSQL_ATTR_DISABLE_PREPARES on).
if ($statements === 'named') {
    $GLOBALS['db_driver_option_' . PDO::PGSQL_ATTR_DISABLE_PREPARES] = false;
} elseif ($statements === 'emulated') {
    $GLOBALS['db_driver_option_' . PDO::ATTR_EMULATE_PREPARES] = true;
}
