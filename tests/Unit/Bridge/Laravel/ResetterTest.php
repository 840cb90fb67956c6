<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;

/**
 * Each resetter against a booted instance of the Laravel fixture app: what a request changed
 * is gone after reset. The scenarios run in a child process with the fixture's autoloader
 * (Laravel 8 and its Debian dependencies), see scenarios.php.
 */
final class ResetterTest extends TestCase
{
    /** @return array<string, mixed> */
    private static function scenario(string $scenario): array
    {
        $app = \dirname(__DIR__, 4) . '/tests/fixtures/laravel-app';
        self::assertFileExists($app . '/vendor/autoload.php', 'Run composer install in tests/fixtures/laravel-app (scripts/test does)');
        $process = \proc_open(
            [\PHP_BINARY, __DIR__ . '/scenarios.php', $scenario],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
            $pipes,
        );
        self::assertIsResource($process);
        $out = (string) \stream_get_contents($pipes[1]);
        $err = (string) \stream_get_contents($pipes[2]);
        $code = \proc_close($process);
        self::assertSame(0, $code, $out . $err);
        $result = \json_decode($out, true);
        self::assertIsArray($result, $out . $err);

        return $result;
    }

    public function testConfigChangesAreUndone(): void
    {
        self::assertSame(['during' => ['changed', 'added'], 'after' => ['hello', null]], self::scenario('config'));
    }

    public function testAuthenticatedUserIsForgotten(): void
    {
        self::assertSame(['during' => 5, 'after' => null, 'check' => false], self::scenario('auth'));
    }

    public function testSessionStoreIsReplacedAlsoInTheRedirector(): void
    {
        self::assertSame(['during' => 'secret', 'after' => null, 'store' => null, 'redirect has new store' => true], self::scenario('session'));
    }

    public function testAStoreNoRequestTouchedIsKeptAndAnyChangeReplacesIt(): void
    {
        self::assertSame([
            'kept when untouched' => true,
            'replaced after put' => true,
            'replaced after new id' => true,
            'value after' => null,
            'redirect has the store' => true,
        ], self::scenario('session kept while untouched'));
    }

    public function testQueuedCookiesAreFlushed(): void
    {
        self::assertSame(['during' => 1, 'after' => 0], self::scenario('cookie'));
    }

    public function testLocaleOfAppTranslatorAndCarbonIsRestored(): void
    {
        self::assertSame(['during' => ['fr', 'fr', 'obligatoire'], 'after' => ['en', 'en', 'required']], self::scenario('locale'));
    }

    public function testScopedInstancesAreForgotten(): void
    {
        self::assertSame(['same during' => true, 'same after' => false], self::scenario('scoped'));
    }

    public function testFacadeResolvedInstancesAreCleared(): void
    {
        self::assertSame(['during' => true, 'after' => []], self::scenario('facade'));
    }

    public function testQueryLogIsEmptiedAndSwitchedOff(): void
    {
        self::assertSame(['during' => 1, 'after' => 0, 'logging' => false], self::scenario('querylog'));
    }

    public function testOpenTransactionsAreRolledBackAndLogged(): void
    {
        $result = self::scenario('transaction');
        self::assertSame(2, $result['during']);
        self::assertSame(0, $result['after']);
        self::assertSame(0, $result['rows']);
        self::assertSame(['warning: A request left 2 transaction level(s) open on database connection "memory": rolled back'], $result['log']);
    }

    public function testListenersAddedDuringARequestGoButBootAndModelListenersStay(): void
    {
        // after: request.event, request.* (wildcard), QueryExecuted (DB::listen), boot.event, eloquent.booted
        self::assertSame(['during' => [true, true], 'after' => [false, false, false, true, true]], self::scenario('events'));
    }

    public function testViewStateAndSharedDataAreReset(): void
    {
        self::assertSame(['shared' => ['__env', 'app', 'siteName'], 'sections' => [], 'stack' => '', 'done rendering' => true], self::scenario('view'));
    }

    public function testValidationRulesAddedDuringARequestGo(): void
    {
        self::assertSame(['during' => true, 'rules after' => ['boot_rule']], self::scenario('validator'));
    }

    public function testPaginationResolversAreRestored(): void
    {
        self::assertSame(['during' => 42, 'after' => 1], self::scenario('pagination'));
    }

    public function testTerminatingCallbacksOfARequestRunOnce(): void
    {
        self::assertSame(['calls' => 1], self::scenario('terminating'));
    }

    public function testTheFinishedRequestIsReplacedEverywhere(): void
    {
        self::assertSame([
            'during' => ['http://shop.test/cart', '5', 'cart'],
            'after' => ['http://localhost', null, 'http://localhost', null, 'http://localhost'],
        ], self::scenario('request'));
    }

    public function testAnInstanceLetsGoOfItsFinishedRequestWhenLentToATaskOrLeftIdleNotWhenAnotherRequestReplacesIt(): void
    {
        self::assertSame([
            'held after a request' => 1,
            'lent to a request' => [0, ['http://shop.test/cart', 'cart']],
            'lent to a task' => [0, ['http://localhost', null]],
            'before the sweep' => [['http://shop.test/cart', 'cart'], true],
            'after the sweep' => [0, ['http://localhost', null], false],
            'errors' => [],
        ], self::scenario('finished requests'));
    }

    /**
     * A finished request with a session is freed as soon as the next request replaces it, not
     * when PHP's cycle collector gets round to it (FinishedRequest): the worker's heap stays flat.
     */
    public function testAFinishedRequestWithACookieSessionIsFreedWithoutTheCycleCollector(): void
    {
        self::assertSame([
            'pages' => ['stored one', 'stored two'],
            'first freed' => true,
            'second freed' => true,
            'the last one is held by its instance' => true,
            'errors' => [],
        ], self::scenario('finished requests freed at once'));
    }

    public function testLogContextOfARequestIsForgotten(): void
    {
        self::assertSame(['during' => ['request' => 'r1'], 'after' => []], self::scenario('log context'));
    }

    public function testBindingsInstancesAndCallbacksAddedDuringARequestAreGone(): void
    {
        self::assertSame([
            'during' => [true, true, true, true, true, 100],
            'after' => [false, false, false, false, false, 0],
            'files still works' => true,
        ], self::scenario('container'));
    }

    public function testABootThatWaitsKeepsItsOwnStaticsWhileOtherRequestsRun(): void
    {
        self::assertSame(['routes of the second' => true, 'facade root' => true, 'container' => true], self::scenario('boot that waits'));
    }

    public function testAnInstanceBootedDuringARequestStartsFromPristineState(): void
    {
        self::assertSame([
            'booted with' => 'en',
            'after its reset' => 'en',
            'request zone kept' => 'Asia/Tokyo',
            'zone' => false,
        ], self::scenario('pristine boot'));
    }

    public function testEachInstanceGetsItsOwnProcessGlobalsBack(): void
    {
        $same = ['container' => true, 'facade root' => true, 'view' => true, 'eloquent' => true];
        self::assertSame([
            'first' => $same + ['carbon' => 'en'],
            'second' => $same + ['carbon' => 'de'],
            'different apps' => true,
        ], self::scenario('globals'));
    }

    public function testAnInstanceForgottenWhileCurrentLeavesTheStaticsAtTheirDefaults(): void
    {
        self::assertSame([
            'container' => true,
            'facade root' => null,
            'carbon' => 'en',
            'artisan bootstrappers' => [],
            'first again' => true,
        ], self::scenario('forgotten'));
    }
}
