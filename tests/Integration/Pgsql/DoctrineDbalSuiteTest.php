<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use PHPUnit\Framework\TestCase;

/**
 * Doctrine DBAL's own functional tests (tests/ThirdParty/doctrine-dbal, DBAL 4.2 with PHPUnit 10
 * in a Composer project of their own) run twice against the private PostgreSQL: through DBAL's
 * pdo_pgsql driver on native PDO, and through Spindle\Bridge\Doctrine\PgsqlDriver on
 * Spindle\Database\Pdo; once for each way statements reach the server (DBAL's default unnamed
 * statements, named prepared statements, emulated prepares), and once more with PHPUnit inside a
 * fiber of the event loop, where Spindle's PDO suspends on every wait as under `spindle serve`.
 * Fails when a test that passes natively does not pass through Spindle (failing, erroring,
 * skipped, or passing with a warning, notice or deprecation native does not raise), unless it is
 * listed below with its reason, and when a listed test passes now.
 *
 * Run one side by hand (the JSON names PHPUnit's log):
 *     php tests/ThirdParty/doctrine-dbal/run.php spindle --statements=named --filter ConnectionTest
 *
 * @phpstan-type Outcome array{outcome: string, message: string, issues: list<string>}
 */
final class DoctrineDbalSuiteTest extends TestCase
{
    /**
     * Tests whose difference is Spindle's on purpose, each with the reason. The list also proves
     * the Spindle side runs through Spindle: were it native, these would pass and fail this test.
     */
    private const LISTED = [
        // PDO::ATTR_PERSISTENT is accepted without effect, and getAttribute() says so (false):
        // one connection shared by the fibers of concurrent requests would interleave their
        // queries. Pools (docs/database.md) keep connections instead.
        'Doctrine\DBAL\Tests\Functional\ConnectionTest::testPersistentConnection' => 'ATTR_PERSISTENT has no effect',
    ];

    /** Of 470 native passes (463 emulated); fewer means the database setup (not Spindle) is broken. */
    private const NATIVE_PASSES_AT_LEAST = 450;

    /** @var array<string, array{results: array<string, Outcome>, work: string}> native runs by statement mode */
    private static array $nativeRuns = [];

    /** @return array<string, array{string, bool}> */
    public static function modes(): array
    {
        return [
            'unnamed statements (DBAL\'s default)' => ['unnamed', false],
            'named prepared statements' => ['named', false],
            'emulated prepares' => ['emulated', false],
            'unnamed statements, Spindle in a fiber' => ['unnamed', true],
        ];
    }

    /** @dataProvider modes */
    public function testSpindlePassesWhatNativePasses(string $statements, bool $inFiber): void
    {
        PgsqlTestCase::env();
        // Native PDO blocks in or out of a fiber alike: its run for a statement mode serves twice.
        $nativeRun = self::$nativeRuns[$statements] ??= self::runSide('native', $statements, false);
        $spindleRun = self::runSide('spindle', $statements, $inFiber);
        $native = $nativeRun['results'];
        $spindle = $spindleRun['results'];

        $nativePasses = array_keys(array_filter($native, static fn (array $r): bool => $r['outcome'] === 'passed'));
        self::assertGreaterThanOrEqual(self::NATIVE_PASSES_AT_LEAST, \count($nativePasses), "Native pdo_pgsql passes too few of DBAL's tests: the test database is not set up right (scripts/postgres sets it up; see {$nativeRun['work']}/phpunit.log)");

        $unexpected = [];
        $stale = [];
        $spindlePasses = 0;
        foreach ($nativePasses as $test) {
            $theirs = $spindle[$test] ?? ['outcome' => 'missing', 'message' => '', 'issues' => []];
            $newIssues = array_values(array_diff($theirs['issues'], $native[$test]['issues']));
            $passes = $theirs['outcome'] === 'passed' && $newIssues === [];
            $spindlePasses += (int) $passes;
            $reason = self::LISTED[$test] ?? null;
            if (!$passes && $reason === null) {
                $unexpected[] = sprintf("%s: %s\n    %s", $test, $theirs['outcome'], trim(strtok($theirs['message'] . "\n" . implode("\n", $newIssues), "\n") ?: ''));
            }
            if ($passes && $reason !== null) {
                $stale[] = "$test ($reason)";
            }
        }
        self::assertSame([], $unexpected, "Through Spindle, DBAL's tests that pass natively fail (PHPUnit's output: {$spindleRun['work']}/phpunit.log)");
        self::assertSame([], $stale, 'Listed as failing through Spindle but passes now: take it off the list');

        // Passed: the logs (kept on failure) go.
        foreach ([$nativeRun['work'], $spindleRun['work']] as $directory) {
            array_map('unlink', glob($directory . '/*') ?: []);
            @rmdir($directory);
        }
        fwrite(\STDERR, sprintf(
            "\nDoctrine DBAL functional tests (pdo_pgsql, %s statements%s): %d run, native passes %d, Spindle passes %d of those, %d listed\n",
            $statements,
            $inFiber ? ', Spindle in a fiber' : '',
            \count($native),
            \count($nativePasses),
            $spindlePasses,
            \count(self::LISTED),
        ));
    }

    /** @return array{results: array<string, Outcome>, work: string} */
    private static function runSide(string $side, string $statements, bool $inFiber): array
    {
        $command = [\PHP_BINARY, \dirname(__DIR__, 2) . '/ThirdParty/doctrine-dbal/run.php', $side, "--statements=$statements"];
        if ($inFiber) {
            $command[] = '--in-fiber';
        }
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $json = (string) stream_get_contents($pipes[1]);
        $errors = (string) stream_get_contents($pipes[2]);
        $status = proc_close($process);
        self::assertSame(0, $status, "tests/ThirdParty/doctrine-dbal/run.php $side failed: $errors");
        $decoded = json_decode($json, true);
        self::assertIsArray($decoded, "tests/ThirdParty/doctrine-dbal/run.php $side printed no results: $errors");

        return ['results' => $decoded['results'], 'work' => $decoded['work']];
    }
}
