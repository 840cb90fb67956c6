<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;

/**
 * The resetters for the state Laravel 9 to 12 added, each against a booted instance of the
 * Laravel 12 fixture app, and all of them on the Laravel 8 fixture, where they have nothing to
 * do. The scenarios run in a child process with the fixture's autoloader (modern-scenarios.php).
 */
final class ModernResetterTest extends TestCase
{
    /** @return array<string, mixed> */
    private static function scenario(string $scenario, string $fixture = 'laravel12-app'): array
    {
        $app = \dirname(__DIR__, 4) . '/tests/fixtures/' . $fixture;
        self::assertFileExists($app . '/vendor/autoload.php', "The fixture $fixture is not installed (scripts/test installs it)");
        $process = \proc_open(
            [\PHP_BINARY, __DIR__ . '/modern-scenarios.php', $fixture, $scenario],
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

    public function testContextIsEmptied(): void
    {
        self::assertSame(['during' => [['tag' => 'one'], ['secret' => 'two']], 'after' => [[], []]], self::scenario('context'));
    }

    public function testSharedAndChannelLogContextIsDropped(): void
    {
        self::assertSame(['during' => [['shared' => 1], ['shared' => 1, 'channel' => 2]], 'after' => [[], []]], self::scenario('log context'));
    }

    public function testDeferredCallbacksLeftOverAreDroppedUnrun(): void
    {
        self::assertSame(['during' => 1, 'after' => 0, 'calls' => 0], self::scenario('deferred'));
    }

    public function testOnceValuesAreForgotten(): void
    {
        self::assertSame(['same during' => true, 'same after' => false], self::scenario('once'));
    }

    public function testStrAndNumberHooksGoBackToTheirBootedValues(): void
    {
        $result = self::scenario('hooks');
        self::assertSame(['fr', 'EUR', '00000000-0000-0000-0000-000000000000', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'xxx'], $result['during']);
        self::assertSame(['de', 'USD', true, true, true], $result['after']);
    }

    public function testViteGoesBackToItsBootedOptionsWithoutTheRequestsNonce(): void
    {
        self::assertSame(['during' => 'one-request', 'after' => [null, 'booted-build']], self::scenario('vite'));
    }

    public function testAViteFirstResolvedDuringARequestIsForgotten(): void
    {
        self::assertSame(['kept after' => false, 'nonce' => null], self::scenario('vite resolved during a request'));
    }

    public function testCarbonTestTimeIsCleared(): void
    {
        self::assertSame(['during' => [2001, 2001, 2001], 'after' => [false, false, true]], self::scenario('carbon'));
    }

    public function testSupportStaticsAreEachInstancesOwn(): void
    {
        self::assertSame([
            'first' => ['fr', true, true],
            'second' => ['de', 'yy', true],
            'different tokens' => true,
        ], self::scenario('statics'));
    }

    public function testTheAppsResettersRunBeforeTheContainerRestoreAndLivewireIsCovered(): void
    {
        $result = self::scenario('resetters and statics');
        $names = $result['resetters'];
        self::assertIsArray($names);
        $app = \array_search('App\Spindle\ClearTally', $names, true);
        self::assertIsInt($app, \implode(', ', $names));
        self::assertSame('ContainerResetter', $names[$app + 1]);
        self::assertSame('LivewireResetter', $names[$app - 1]);
        self::assertSame(['ContainerResetter', 'FacadeResetter'], \array_slice($names, -2));
        self::assertTrue($result['livewire stack swapped']);
        self::assertTrue($result['app static swapped']);
    }

    public function testAnAppResetterThatIsNotAnInvokableClassIsRefusedAndOneThatThrowsIsLogged(): void
    {
        $result = self::scenario('app resetter errors');
        self::assertSame([
            'spindle.resetters: NoSuchClass is not an invokable class',
            'spindle.resetters: stdClass is not an invokable class',
            'spindle.resetters must be a list of invokable class names, got array',
        ], $result['refused']);
        self::assertFalse($result['clean']);
        self::assertIsArray($result['log']);
        self::assertCount(1, $result['log']);
        self::assertStringStartsWith('error: Laravel instance 9: App\Spindle\ClearTally failed: ', $result['log'][0]);
    }

    public function testWithoutLivewireOrAppConfigNothingIsAdded(): void
    {
        $result = self::scenario('resetters and statics', 'laravel-app');
        $names = $result['resetters'];
        self::assertIsArray($names);
        self::assertNotContains('LivewireResetter', $names);
        self::assertCount(\count(\Spindle\Bridge\Laravel\InstanceFactory::RESETTERS) - 1, $names);
        self::assertFalse($result['livewire stack swapped']);
        self::assertFalse($result['app static swapped']);
    }

    public function testTheResettersDoNothingOnLaravel8(): void
    {
        self::assertSame(['version' => 8, 'ran' => 7], self::scenario('older laravel', 'laravel-app'));
    }
}
