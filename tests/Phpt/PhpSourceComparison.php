<?php

declare(strict_types=1);

namespace Spindle\Tests\Phpt;

use PHPUnit\Framework\Assert;

/**
 * Runs PHP's own phpt tests for one driver twice, natively and routed to Spindle\Database\Pdo
 * (tests/Phpt/run.php, both at once: each side has a database of its own), and fails when
 * Spindle fails a test that native passes, unless the test is listed with its reason, or when a
 * listed test passes now. The native run tells a broken database setup apart: if it passes too
 * few, the setup is at fault, not Spindle.
 */
final class PhpSourceComparison
{
    /**
     * @param list<string>          $arguments   tests/Phpt/run.php's options after the side (--pgsql)
     * @param array<string, string> $listed      test => why Spindle differs
     * @param string                $driver      the native driver's name, for the messages
     */
    public static function assertSpindlePassesWhatNativePasses(array $arguments, array $listed, int $nativePassesAtLeast, string $driver): void
    {
        $runs = ['native' => self::start('native', $arguments), 'spindle' => self::start('spindle', $arguments)];
        $results = [];
        $work = [];
        foreach ($runs as $side => [$process, $stdout, $stderr]) {
            $json = (string) stream_get_contents($stdout);
            $errors = (string) stream_get_contents($stderr);
            $status = proc_close($process);
            $decoded = json_decode($json, true);
            Assert::assertSame(0, $status, "tests/Phpt/run.php $side failed: $errors");
            Assert::assertIsArray($decoded, "tests/Phpt/run.php $side printed no results: $errors");
            $results[$side] = $decoded['results'];
            $work[$side] = $decoded['work'];
        }
        $native = $results['native'];
        $spindle = $results['spindle'];
        $nativePasses = array_keys(array_filter($native, static fn (string $r): bool => $r === 'PASS'));
        Assert::assertGreaterThanOrEqual($nativePassesAtLeast, \count($nativePasses), "Native $driver passes too few of its own tests: the test database is not set up right (see " . $work['native'] . '/run-tests.log)');

        $unexpected = [];
        $stale = [];
        foreach ($nativePasses as $test) {
            $reason = $listed[$test] ?? null;
            $passes = ($spindle[$test] ?? 'MISSING') === 'PASS';
            if (!$passes && $reason === null) {
                $unexpected[] = sprintf('%s: %s (diff in %s/%s)', $test, $spindle[$test] ?? 'MISSING', $work['spindle'], preg_replace('/\.phpt$/', '.diff', $test));
            }
            if ($passes && $reason !== null) {
                $stale[] = "$test ($reason)";
            }
        }
        Assert::assertSame([], $unexpected, "Spindle fails tests that native $driver passes");
        Assert::assertSame([], $stale, 'Listed as failing but passes now: take it off the list');
        // Passed: the work directories (kept on failure, for their .diff files) go.
        foreach ($work as $directory) {
            self::remove($directory);
        }
        fwrite(\STDERR, sprintf(
            "\nphpt (%s): %d run, native passes %d, Spindle passes %d of those, %d listed\n",
            $driver,
            \count($native),
            \count($nativePasses),
            \count(array_filter($nativePasses, static fn (string $t): bool => ($spindle[$t] ?? '') === 'PASS')),
            \count($listed),
        ));
    }

    private static function remove(string $path): void
    {
        if (is_dir($path) && !is_link($path)) {
            foreach (scandir($path) ?: [] as $name) {
                if ($name !== '.' && $name !== '..') {
                    self::remove($path . '/' . $name);
                }
            }
            @rmdir($path);
        } else {
            @unlink($path);
        }
    }

    /**
     * @param list<string> $arguments
     *
     * @return array{resource, resource, resource}
     */
    private static function start(string $side, array $arguments): array
    {
        $process = proc_open([\PHP_BINARY, __DIR__ . '/run.php', $side, ...$arguments], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        Assert::assertIsResource($process);

        return [$process, $pipes[1], $pipes[2]];
    }
}
