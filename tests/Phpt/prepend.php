<?php

/*
 * Prepended to every phpt test routed to Spindle\Database\Pdo (tests/Phpt/run.php).
 *
 * - An autoloader for Spindle's and Revolt's classes (src/, vendor/revolt/event-loop/src/), and
 *   Spindle's functions. Named functions rather than Composer's loader: the prepend creates no
 *   object, so a test that prints object handles (#2) sees the same as natively until Spindle
 *   itself runs.
 * - An output filter that prints the routed classes under the names of the classes they stand
 *   in for, since a class of PHP code cannot be named \PDO: Spindle\Database\Pdo\Statement as
 *   PDOStatement, Spindle\Database\Pdo as PDO, and the subclass Spindle generates for an
 *   ATTR_STATEMENT_CLASS class that extends PDOStatement (Spindle\Database\Pdo\Generated\X) as
 *   X, and FETCH_LAZY's Spindle\Database\Pdo\LazyRow as PDORow. Only names change (with the lengths var_dump() prints for them).
 */

function spindle_phpt_autoload(string $class): void
{
    $root = dirname(__DIR__, 2);
    foreach (['Spindle\\' => $root . '/src/', 'Revolt\\' => $root . '/vendor/revolt/event-loop/src/'] as $prefix => $dir) {
        if (str_starts_with($class, $prefix)) {
            $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) {
                require $file;
            }

            return;
        }
    }
}

function spindle_phpt_names(string $output): string
{
    $names = [
        'Spindle\\Database\\Pdo\\Generated\\' => '',
        'Spindle\\Database\\Pdo\\LazyRow' => 'PDORow',
        'Spindle\\Database\\Pdo\\Statement' => 'PDOStatement',
        'Spindle\\Database\\Pdo' => 'PDO',
    ];
    // var_dump() of a class name string: string(30) "Spindle\Database\Pdo\Statement"
    $output = (string) preg_replace_callback(
        '/string\(\d+\) "(Spindle\\\\Database\\\\Pdo[^"]*)"/',
        'spindle_phpt_string',
        $output,
    );

    return strtr($output, $names + [
        'Spindle\\\\Database\\\\Pdo\\\\Statement' => 'PDOStatement',
        'Spindle\\\\Database\\\\Pdo' => 'PDO',
    ]);
}

/** @param array<int, string> $m */
function spindle_phpt_string(array $m): string
{
    $name = strtr($m[1], ['Spindle\\Database\\Pdo\\Generated\\' => '', 'Spindle\\Database\\Pdo\\LazyRow' => 'PDORow', 'Spindle\\Database\\Pdo\\Statement' => 'PDOStatement', 'Spindle\\Database\\Pdo' => 'PDO']);

    return sprintf('string(%d) "%s"', strlen($name), $name);
}

spl_autoload_register('spindle_phpt_autoload');
require dirname(__DIR__, 2) . '/src/functions.php';
ob_start('spindle_phpt_names');
