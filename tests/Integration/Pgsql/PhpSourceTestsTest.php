<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use PHPUnit\Framework\TestCase;
use Spindle\Tests\Phpt\PhpSourceComparison;

/**
 * PHP's own pdo_pgsql phpt tests, and the generic ext/pdo ones redirected to PostgreSQL (PHP
 * 8.2.32, vendored in tests/Phpt/php-src), run twice against the private PostgreSQL: natively,
 * and with every `new PDO(` routed to Spindle\Database\Pdo (tests/Phpt/run.php --pgsql). Fails
 * when Spindle fails a test that native pdo_pgsql passes, unless the test is listed below with
 * its reason.
 *
 * Run one test by hand: php tests/Phpt/run.php spindle --pgsql ext/pdo_pgsql/tests/bug36727.phpt
 * (a generic test by its ext/pdo path; the work directory it prints keeps .diff and .out files).
 */
final class PhpSourceTestsTest extends TestCase
{
    /** Tests that cannot apply to a PDO written in PHP, each with the reason (as for MySQL). */
    private const CANNOT_APPLY = [
        // FETCH_LAZY's PDORow cannot be made in PHP: the test prints object handles and uses
        // `$ref = &$row[]`.
        'ext/pdo_pgsql/tests/pdo_035.phpt' => 'PDORow: object handles, &$row[]',
        // A warning at the test's line: PHP code raises it where trigger_error() runs.
        'ext/pdo_pgsql/tests/pdo_034.phpt' => 'warning location inside the library',
        // The engine's TypeError for a PHP method's parameter adds ", called in %s on line %d".
        'ext/pdo_pgsql/tests/bug_44173.phpt' => 'engine TypeError text of a PHP method',
        // A class extending PDOStatement calling into the C PDOStatement itself.
        'ext/pdo_pgsql/tests/pdo_029.phpt' => 'parent:: call into the C PDOStatement',
        'ext/pdo_pgsql/tests/pdo_014.phpt' => 'C PDOStatement iterator',
        // Prints literal object handles (#2, #4): the objects Spindle makes take handles too.
        'ext/pdo_pgsql/tests/bug75402.phpt' => 'object handles',
    ];

    /** Of about 121 native passes; fewer means the database setup (not Spindle) is broken. */
    private const NATIVE_PASSES_AT_LEAST = 110;

    public function testSpindlePassesWhatNativePasses(): void
    {
        if (!\extension_loaded('pdo_pgsql')) {
            self::fail('The phpt tests compare with native pdo_pgsql: install php8.2-pgsql (scripts/test does).');
        }
        PgsqlTestCase::env();
        PhpSourceComparison::assertSpindlePassesWhatNativePasses(['--pgsql'], self::CANNOT_APPLY, self::NATIVE_PASSES_AT_LEAST, 'pdo_pgsql');
        $this->addToAssertionCount(1);
    }
}
