<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;

/**
 * The state check's Laravel switches, on the Laravel 12 fixture app booted in-process
 * (tests/Replay/LaravelReplay): `config('spindle.check_state')` turns it on (the fixture's
 * config/spindle.php sets it from FIXTURE_CHECK_STATE), it is off without it; what the app's
 * own resetter (the Tally's) puts back and the static `spindle.statics` swaps are not reported.
 */
final class ReplayStateCheckTest extends TestCase
{
    private const PATHS = ['/state/hello', '/tally/add/a', '/tally/add/b', '/per-instance/x?wait=0', '/hello'];

    /**
     * @param list<string> $env NAME=VALUE
     *
     * @return list<string> the warnings logged
     */
    private static function warnings(array $env): array
    {
        $process = \proc_open(
            [\PHP_BINARY, __DIR__ . '/replay-check-state.php', 'FIXTURE_APP_STATE=1', ...$env, '--', ...self::PATHS],
            // stderr to a file: a child that logs much would fill a pipe unread while stdout is read.
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => $errors = \tmpfile()],
            $pipes,
        );
        self::assertIsResource($process);
        $out = (string) \stream_get_contents($pipes[1]);
        $status = \proc_close($process);
        \assert(\is_resource($errors));
        \rewind($errors);
        $err = (string) \stream_get_contents($errors);
        self::assertSame(0, $status, $out . $err);
        $result = \json_decode($out, true);
        self::assertIsArray($result, $out . $err);
        self::assertSame(\array_fill(0, \count(self::PATHS), 200), $result['statuses'], $out);
        self::assertIsArray($result['log']);

        return \array_values(\array_filter($result['log'], static fn (string $line): bool => \str_starts_with($line, 'warning: ')));
    }

    public function testTheConfigSwitchTurnsItOn(): void
    {
        $warnings = self::warnings(['FIXTURE_CHECK_STATE=1']);

        self::assertCount(1, $warnings, \implode("\n", $warnings));
        self::assertStringStartsWith('warning: State kept across requests: App\LastRoute::$route (a service kept between requests) changed during GET /state/hello (route state.hello)', $warnings[0]);
    }

    public function testOffByDefault(): void
    {
        self::assertSame([], self::warnings([]));
    }
}
