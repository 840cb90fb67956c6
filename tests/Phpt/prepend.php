<?php

/*
 * Prepended to every phpt test routed to Spindle\Database\Pdo (tests/Phpt/run.php): Composer's
 * autoloader, and an output filter that prints the routed classes under the names of the classes
 * they stand in for (Spindle\Database\Pdo\Statement as PDOStatement, Spindle\Database\Pdo as
 * PDO), since a class of PHP code cannot be named \PDO. Only names change; object handles,
 * property lists and everything else are printed as they are.
 */

require dirname(__DIR__, 2) . '/vendor/autoload.php';

ob_start(static fn (string $output): string => strtr($output, [
    'string(30) "Spindle\\Database\\Pdo\\Statement"' => 'string(12) "PDOStatement"',
    'string(20) "Spindle\\Database\\Pdo"' => 'string(3) "PDO"',
    'Spindle\\Database\\Pdo\\Statement' => 'PDOStatement',
    'Spindle\\\\Database\\\\Pdo\\\\Statement' => 'PDOStatement',
    'Spindle\\Database\\Pdo' => 'PDO',
    'Spindle\\\\Database\\\\Pdo' => 'PDO',
]));
