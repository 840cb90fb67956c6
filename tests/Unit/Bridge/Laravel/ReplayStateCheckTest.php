<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;
use Spindle\Tests\Replay\ReplayProcess;

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
        $result = ReplayProcess::run(__DIR__ . '/replay-check-state.php', ['FIXTURE_APP_STATE=1', ...$env, '--', ...self::PATHS]);
        self::assertSame(\array_fill(0, \count(self::PATHS), 200), $result['statuses'], \json_encode($result, \JSON_THROW_ON_ERROR));
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
