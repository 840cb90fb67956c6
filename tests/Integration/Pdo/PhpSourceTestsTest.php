<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

use PHPUnit\Framework\TestCase;
use Spindle\Tests\Phpt\PhpSourceComparison;

/**
 * PHP's own pdo and pdo_mysql phpt tests (PHP 8.2, vendored in tests/Phpt/php-src) run twice
 * against the private MariaDB: natively, and with every `new PDO(` routed to
 * Spindle\Database\Pdo (tests/Phpt/run.php). Fails when Spindle fails a test that native passes,
 * unless the test is listed below with its reason. The native run tells a broken database setup
 * apart: if it passes too few, the setup is at fault, not Spindle.
 *
 * Run one test by hand: php tests/Phpt/run.php spindle ext/pdo/tests/pdo_005.phpt (the generic
 * tests by their ext/pdo path; the work directory it prints keeps .diff and .out files).
 */
final class PhpSourceTestsTest extends TestCase
{
    /** Tests that cannot apply to a PDO written in PHP, each with the reason. */
    private const CANNOT_APPLY = [
        // FETCH_LAZY: a PDORow cannot be made in PHP; Spindle's stand-in (LazyRow, printed as
        // PDORow) reads like one, but these tests print literal object handles (#3, #5), and
        // `$ref = &$row[]` gives ArrayAccess's notice instead of PDORow's error.
        'ext/pdo_mysql/tests/bug44327.phpt' => 'PDORow: object handles',
        'ext/pdo_mysql/tests/pdo_035.phpt' => 'PDORow: object handles, &$row[]',
        // Persistent connections: ATTR_PERSISTENT is accepted and has no effect.
        'ext/pdo_mysql/tests/pdo_mysql_pconnect.phpt' => 'persistent connections',
        // Compares the exact public method list (Spindle adds fromConnection() and __debugInfo()).
        'ext/pdo_mysql/tests/pdo_mysql_interface.phpt' => 'public method list',
        // Prints a literal object handle (#4): the objects Spindle makes take handles too.
        'ext/pdo_mysql/tests/pdo_mysql_stmt_fetch_serialize.phpt' => 'object handles',
        // Expects a warning at the test's line: PHP code can raise a warning only where its
        // trigger_error() runs, inside the library.
        'ext/pdo_mysql/tests/pdo_034.phpt' => 'warning location inside the library',
        // The engine's TypeError for a PHP method's parameter adds ", called in %s on line %d";
        // for an internal method it does not (the parameter must stay ?int: PDO's subclasses
        // declare it so).
        'ext/pdo_mysql/tests/bug_44173.phpt' => 'engine TypeError text of a PHP method',
        // ATTR_STATEMENT_CLASS with a class extending PDOStatement: Spindle instantiates a
        // generated subclass of it, but a call the class makes to a PDOStatement method through
        // the C class itself reaches C code with no driver statement: `parent::execute()`
        // (pdo_029), `new IteratorIterator($this, 'PDOStatement')` (pdo_014).
        'ext/pdo_mysql/tests/pdo_029.phpt' => 'parent:: call into the C PDOStatement',
        'ext/pdo_mysql/tests/pdo_014.phpt' => 'C PDOStatement iterator',
    ];

    /** Native behaviour Spindle does not copy on purpose, each with the reason. */
    private const DELIBERATE = [
        // exec() of a SELECT: pdo_mysql leaves the rows unread, and the connection fails every
        // later command with 2014 for good; Spindle reads and drops them.
        'ext/pdo_mysql/tests/bug_42499.phpt' => 'exec() of a SELECT',
        'ext/pdo_mysql/tests/pdo_mysql_exec_select.phpt' => 'exec() of a SELECT',
        // The test calls nextRowset() on an exhausted statement ($handle1 for $handle4): in
        // pdo_mysql that walks the result sets another statement left pending on the same
        // connection; in Spindle a statement reads only its own.
        'ext/pdo_mysql/tests/bug_61207.phpt' => "nextRowset() reading another statement's results",
    ];

    /** Of about 223 native passes; fewer means the database setup (not Spindle) is broken. */
    private const NATIVE_PASSES_AT_LEAST = 200;

    public function testSpindlePassesWhatNativePasses(): void
    {
        if (!\extension_loaded('pdo_mysql')) {
            self::fail('The phpt tests compare with native pdo_mysql: install php8.2-mysql (scripts/test does).');
        }
        PhpSourceComparison::assertSpindlePassesWhatNativePasses([], self::CANNOT_APPLY + self::DELIBERATE, self::NATIVE_PASSES_AT_LEAST, 'pdo_mysql');
        $this->addToAssertionCount(1);
    }
}
