<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

use PHPUnit\Framework\TestCase;

/**
 * Guzzle's own handler tests (ClientTest, CurlHandlerTest, CurlMultiHandlerTest, CurlFactoryTest,
 * StreamHandlerTest, against Guzzle's Node test server; tests/ThirdParty/guzzle) run twice: with
 * Guzzle's curl and stream handlers, and with the same classes standing for SpindleHandler. Fails
 * when a test that passes natively does not pass through Spindle, unless it is listed below (and
 * in docs/http-client.md) with its reason, and when a listed test passes now.
 *
 * Run one side by hand (the JSON names PHPUnit's log):
 *     php tests/ThirdParty/guzzle/run.php spindle --filter CurlMultiHandlerTest
 */
final class GuzzleSuiteTest extends TestCase
{
    /**
     * Tests of curl's or PHP streams' own workings, which a handler that is neither cannot pass;
     * each with the reason (docs/http-client.md lists them too). The list also proves the Spindle
     * side runs through Spindle: were it native, these would pass and fail this test.
     */
    private const LISTED = [
        'GuzzleHttp\Tests\Handler\CurlMultiHandlerTest::testCanSetSelectTimeout' => "curl_multi's select timeout, a property of CurlMultiHandler",
        'GuzzleHttp\Tests\Handler\CurlMultiHandlerTest::testUsesTimeoutEnvironmentVariables' => "curl_multi's select timeout (GUZZLE_CURL_SELECT_TIMEOUT)",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testStreamAttributeKeepsStreamOpen' => "the body's detach() returns PHP's http stream resource",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testHonorsReadTimeout' => "the body's detach() returns PHP's http stream resource",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testAddsProxyByProtocol' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testAddsProxyButHonorsNoProxy' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testAddsTimeout' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testVerifyCanBeSetToPath' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testUsesSystemDefaultBundle' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testSetsCryptoMethodTls10' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testSetsCryptoMethodTls11' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testSetsCryptoMethodTls12' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testSetsCryptoMethodTls13' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testCanSetPasswordWhenSettingCert' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testPerformsShallowMergeOfCustomContextOptions' => "reads the stream context of PHP's http stream",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testDebugAttributeWritesToStream' => "PHP's stream notifications as debug output; Spindle writes curl's verbose format",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testDebugAttributeWritesStreamInfoToBuffer' => "PHP's stream notifications as debug output; Spindle writes curl's verbose format",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testInvokesOnStatsOnError' => "the stream handler's error data is the exception; Spindle gives curl's error number, as CurlHandler",
        'GuzzleHttp\Test\Handler\StreamHandlerTest::testDrainsResponseAndReadsAllContentWhenContentLengthIsZero' => "PHP's http wrapper reads past Content-Length: 0 to the close; Spindle, as curl, honours the length",
    ];

    /** Of 156 native passes with Guzzle 7.8.1's tests; fewer means the setup (php-curl, node, the test server's port), not Spindle, is broken. */
    private const NATIVE_PASSES_AT_LEAST = 140;

    /** @var array<string, array{results: array<string, array{outcome: string, message: string}>, work: string, log: string}> native runs by tag */
    private static array $nativeRuns = [];

    /** @return array<string, array{string, bool}> */
    public static function tags(): array
    {
        $version = \Composer\InstalledVersions::getPrettyVersion('guzzlehttp/guzzle') ?? '';

        return ['Guzzle 7.8.1' => ['7.8.1', false], 'Guzzle 7.8.1, Spindle in a fiber' => ['7.8.1', true]]
            + ($version !== '7.8.1' ? ["Guzzle $version (vendor/)" => [$version, false]] : []);
    }

    /** @dataProvider tags */
    public function testSpindlePassesWhatNativePasses(string $tag, bool $inFiber): void
    {
        if (!\extension_loaded('curl')) {
            self::markTestSkipped('php-curl is not installed (scripts/test installs it)');
        }
        if (!\is_executable('/usr/bin/node') && \trim((string) \shell_exec('command -v node')) === '') {
            self::markTestSkipped("node is not installed: Guzzle's test server is a Node program");
        }
        // Guzzle's handlers block in or out of a fiber alike: their run for a tag serves twice.
        $nativeRun = self::$nativeRuns[$tag] ??= self::runSide('native', $tag, false);
        $spindleRun = self::runSide('spindle', $tag, $inFiber);
        $native = $nativeRun['results'];
        $spindle = $spindleRun['results'];

        $nativePasses = \array_keys(\array_filter($native, static fn (array $r): bool => $r['outcome'] === 'passed'));
        self::assertGreaterThanOrEqual(self::NATIVE_PASSES_AT_LEAST, \count($nativePasses), "Guzzle's handlers pass too few of Guzzle's tests: the setup is broken (see {$nativeRun['log']})");

        $unexpected = [];
        $stale = [];
        $spindlePasses = 0;
        foreach ($nativePasses as $test) {
            $theirs = $spindle[$test] ?? ['outcome' => 'missing', 'message' => ''];
            $passes = $theirs['outcome'] === 'passed';
            $spindlePasses += (int) $passes;
            $reason = self::LISTED[$test] ?? null;
            if (!$passes && $reason === null) {
                $unexpected[] = \sprintf("%s: %s\n    %s", $test, $theirs['outcome'], \trim(\strtok($theirs['message'], "\n") ?: ''));
            }
            if ($passes && $reason !== null) {
                $stale[] = "$test ($reason)";
            }
        }
        self::assertSame([], $unexpected, "Through Spindle, Guzzle's tests that pass natively fail (PHPUnit's output: {$spindleRun['log']})");
        self::assertSame([], $stale, 'Listed as failing through Spindle but passes now: take it off the list (and docs/http-client.md)');

        foreach ([$nativeRun['work'], $spindleRun['work']] as $directory) {
            \array_map('unlink', \glob($directory . '/*') ?: []);
            @\rmdir($directory);
        }
        \fwrite(\STDERR, \sprintf(
            "\nGuzzle %s handler tests%s: %d run, native passes %d, Spindle passes %d of those, %d listed\n",
            $tag,
            $inFiber ? ' (Spindle in a fiber)' : '',
            \count($native),
            \count($nativePasses),
            $spindlePasses,
            \count(self::LISTED),
        ));
    }

    /** @return array{results: array<string, array{outcome: string, message: string}>, work: string, log: string} */
    private static function runSide(string $side, string $tag, bool $inFiber): array
    {
        $command = [\PHP_BINARY, \dirname(__DIR__, 2) . '/ThirdParty/guzzle/run.php', $side, "--tag=$tag", ...($inFiber ? ['--in-fiber'] : [])];
        $process = \proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $json = (string) \stream_get_contents($pipes[1]);
        $errors = (string) \stream_get_contents($pipes[2]);
        $status = \proc_close($process);
        if ($status === 3) {
            self::markTestSkipped(\trim($errors));
        }
        self::assertSame(0, $status, "tests/ThirdParty/guzzle/run.php $side failed: $errors");
        $decoded = \json_decode($json, true);
        self::assertIsArray($decoded, "tests/ThirdParty/guzzle/run.php $side printed no results: $errors");

        return ['results' => $decoded['results'], 'work' => $decoded['work'], 'log' => $decoded['log']];
    }
}
