<?php

/*
 * Prepended to every phpt test routed to Spindle\Database\Pdo (tests/Phpt/run.php): Composer's
 * autoloader, and an output filter that prints the routed classes under the names of the classes
 * they stand in for, since a class of PHP code cannot be named \PDO: Spindle\Database\Pdo\Statement
 * as PDOStatement, Spindle\Database\Pdo as PDO, and the subclass Spindle generates for an
 * ATTR_STATEMENT_CLASS class that extends PDOStatement (Spindle\Database\Pdo\Generated\X) as X.
 * Only names change (with the lengths var_dump() prints for them); object handles, property lists
 * and everything else are printed as they are.
 */

require dirname(__DIR__, 2) . '/vendor/autoload.php';

ob_start(static function (string $output): string {
    $names = [
        'Spindle\\Database\\Pdo\\Generated\\' => '',
        'Spindle\\Database\\Pdo\\Statement' => 'PDOStatement',
        'Spindle\\Database\\Pdo' => 'PDO',
    ];
    // var_dump() of a class name string: string(30) "Spindle\Database\Pdo\Statement"
    $output = (string) preg_replace_callback(
        '/string\(\d+\) "(Spindle\\\\Database\\\\Pdo[^"]*)"/',
        static function (array $m) use ($names): string {
            $name = strtr($m[1], $names);

            return sprintf('string(%d) "%s"', strlen($name), $name);
        },
        $output,
    );

    return strtr($output, $names + [
        'Spindle\\\\Database\\\\Pdo\\\\Statement' => 'PDOStatement',
        'Spindle\\\\Database\\\\Pdo' => 'PDO',
    ]);
});
