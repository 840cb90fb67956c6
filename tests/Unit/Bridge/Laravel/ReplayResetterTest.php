<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Laravel\InstanceFactory;
use Spindle\Bridge\Laravel\Reset;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\Replay\ReplayProcess;

/**
 * Spindle's default resetters, through the requests of a booted Laravel 12 fixture app
 * (tests/Replay/LaravelReplay: the app booted in-process as a worker boots it, requests fed
 * through Spindle's Laravel handler, one instance): for each piece of state, a request that reads
 * it, one that changes it (and sees the change), then two that must see it as the first did. The
 * resetters run because the worker registered them, so this proves their registration as well
 * as their effect: with one of them left out of InstanceFactory::RESETTERS, its scenario fails
 * (except where the note names the other mechanism that also cleans that state on Laravel 12).
 */
final class ReplayResetterTest extends TestCase
{
    /**
     * Scenario of tests/fixtures/laravel12-app/routes/replay.php => the resetter it exercises,
     * and what else cleans the same state on Laravel 12 (null: nothing, the resetter alone).
     */
    private const SCENARIOS = [
        'transaction' => [Reset\TransactionResetter::class, null],
        'query-log' => [Reset\QueryLogResetter::class, null],
        'config' => [Reset\ConfigResetter::class, null],
        'locale' => [Reset\LocaleResetter::class, null],
        'auth' => [Reset\AuthResetter::class, null],
        'session' => [Reset\SessionResetter::class, null],
        'cookie' => [Reset\CookieResetter::class, null],
        'context' => [Reset\ContextResetter::class, null],
        'log-context' => [Reset\LogContextResetter::class, null],
        'deferred-callbacks' => [Reset\DeferredCallbacksResetter::class, 'not isolated: on Laravel 12 the collection is clean without this resetter too'],
        'once' => [Reset\OnceResetter::class, null],
        'support-hooks' => [Reset\SupportHooksResetter::class, null],
        'vite' => [Reset\ViteResetter::class, null],
        'carbon-test-now' => [Reset\CarbonTestNowResetter::class, null],
        'scoped' => [Reset\ScopedInstancesResetter::class, 'ContainerResetter (it restores the scoped instances too)'],
        'event-listener' => [Reset\EventListenerResetter::class, null],
        'view' => [Reset\ViewResetter::class, null],
        'validator' => [Reset\ValidatorResetter::class, null],
        'pagination' => [Reset\PaginationResetter::class, null],
        'terminating' => [Reset\ContainerResetter::class, null],
        'container' => [Reset\ContainerResetter::class, null],
        'container-bind-attribute' => [Reset\ContainerResetter::class, null],
        'facade' => [Reset\FacadeResetter::class, 'not isolated: on Laravel 12 the swapped facade is gone without this resetter too'],
    ];

    /** Resetters without a replay here, and where they are tested through requests instead. */
    private const ELSEWHERE = [
        Reset\LivewireResetter::class => 'tests/E2E/Laravel12LivewireTest.php (Livewire registered, 20 clients)',
        // What it frees is seen by no later request (each binds its own): only memory is at stake.
        Reset\RequestResetter::class => 'ResetterTest (the finished request is let go)',
    ];

    /** @var array<string, array<string, array{status: int, seen: mixed}>>|null */
    private static ?array $results = null;

    /** @return array<string, array{status: int, seen: mixed}> */
    private static function replay(string $scenario): array
    {
        if (self::$results === null) {
            $fixture = \dirname(__DIR__, 4) . '/tests/fixtures/laravel12-app';
            self::assertFileExists($fixture . '/vendor/autoload.php', 'The Laravel 12 fixture is not installed (scripts/test installs it)');
            LaravelFixture::useTestDatabase();
            $results = ReplayProcess::run(__DIR__ . '/replay-resetters.php', \array_keys(self::SCENARIOS));
            /** @var array<string, array<string, array{status: int, seen: mixed}>> $results */
            self::$results = $results;
        }
        self::assertArrayHasKey($scenario, self::$results);

        return self::$results[$scenario];
    }

    /** @return iterable<string, array{string}> */
    public static function scenarios(): iterable
    {
        foreach (\array_keys(self::SCENARIOS) as $scenario) {
            if ($scenario !== 'once' && $scenario !== 'terminating') {
                yield $scenario => [$scenario];
            }
        }
    }

    /** @dataProvider scenarios */
    public function testTheNextRequestSeesTheStateAsBeforeTheOneThatChangedIt(string $scenario): void
    {
        $seen = self::replay($scenario);
        self::assertSame(200, $seen['before']['status'], \json_encode($seen, \JSON_THROW_ON_ERROR));
        // The dirtying request did change what a request sees (else this test could not fail).
        self::assertNotEquals($seen['before']['seen'], $seen['dirty']['seen'], $scenario);
        self::assertSame($seen['before'], $seen['after'], $scenario);
        self::assertSame($seen['before'], $seen['again'], $scenario);
    }

    public function testOnceGivesEachRequestItsOwnValue(): void
    {
        $seen = self::replay('once');
        $values = \array_column($seen, 'seen');
        self::assertCount(4, \array_unique($values), \json_encode($seen, \JSON_THROW_ON_ERROR));
    }

    public function testATerminatingCallbackRunsOnlyAtTheEndOfTheRequestThatRegisteredIt(): void
    {
        $seen = self::replay('terminating');
        self::assertNull($seen['before']['seen']);
        // The reads after see the dirtying request's termination, never their own.
        self::assertSame('replay/terminating/dirty', $seen['after']['seen']);
        self::assertSame('replay/terminating/dirty', $seen['again']['seen']);
    }

    public function testEveryDefaultResetterIsReplayedOrTestedElsewhere(): void
    {
        $replayed = \array_column(self::SCENARIOS, 0);
        foreach (InstanceFactory::RESETTERS as $class) {
            self::assertTrue(\in_array($class, $replayed, true) || isset(self::ELSEWHERE[$class]), $class . ' has no replay scenario');
        }
        // In the order the resetters run (a resetter may have several scenarios, one after another).
        $order = \array_values(\array_unique($replayed));
        self::assertSame(\array_values(\array_intersect(InstanceFactory::RESETTERS, $order)), $order);
    }
}
