<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;

/**
 * The isolation suite on the Symfony fixture: clients at once in one worker, with sessions of
 * their own or none, each setting a stateful service, its session, the time zone, an ini setting,
 * a superglobal and an error handler from a token of its own, and waiting on MySQL (through
 * DoctrineBundle's connection, which Spindle gives its driver unasked) and on the loop
 * in the controller, in the middle of a PHP template inside an output buffer, and in a streamed
 * body. No response may hold another client's token; each reads back its own values everywhere.
 *
 * @group frameworks
 */
class SymfonyIsolationSuiteTest extends SymfonyFixtureTestCase
{
    private const WITH_SESSION = 30;
    private const WITHOUT = 10;
    private const ROUNDS = 2;
    private const ZONES = ['Asia/Tokyo', 'America/Lima', 'Europe/Oslo', 'Africa/Cairo', 'Australia/Perth', 'Pacific/Fiji'];



    public function testConcurrentRequestsNeverSeeEachOthersState(): void
    {
        $server = self::sharedServer(static::app(), ['--workers=1', '--concurrency=64']);
        $clients = [];
        for ($i = 0; $i < self::WITH_SESSION; ++$i) {
            $jar = $this->cookieJar();
            $set = self::curl(['-s', '-b', $jar, '-c', $jar, $server->url('/session/set?value=client' . $i)]);
            self::assertStringContainsString('"value":"client' . $i . '"', $set['out'], $server->stderr());
            $clients[] = ['-b', $jar];
        }
        for ($i = 0; $i < self::WITHOUT; ++$i) {
            $clients[] = [];
        }
        $zone = $this->baselineZone($server);

        $owner = [];
        $checked = 0;
        for ($round = 0; $round < self::ROUNDS; ++$round) {
            $batch = [];
            foreach ($clients as $i => $args) {
                $token = 'tok' . \bin2hex(\random_bytes(5));
                $owner[$token] = $i;
                $stream = ($i + $round) % 3 === 0;
                $batch[] = [$i, $token, $stream, [...$args, $server->url('/isolation/' . $token . ($stream ? '/stream' : ''))]];
            }
            $outputs = LaravelFixture::curlAll(\array_column($batch, 3));
            foreach ($batch as $n => [$i, $token, $stream]) {
                $body = $outputs[$n];
                \preg_match_all('/tok[0-9a-f]{10}/', $body, $m);
                foreach (\array_unique($m[0]) as $found) {
                    self::assertSame($i, $owner[$found] ?? $i, "Request $token of client $i holds $found of client " . ($owner[$found] ?? '?') . ":\n$body");
                }
                $expected = \implode(';', [
                    "service=$token", "request=$token", "session=$token",
                    'zone=' . self::ZONES[(int) \hexdec(\substr($token, -2)) % \count(self::ZONES)],
                    "agent=$token", "server=$token", "handler=$token",
                ]);
                if ($stream) {
                    // Symfony 5.4's HttpKernel pops the request off the stack before the response
                    // is sent (the callback then sees no current request, hence no session there);
                    // 7.4 keeps it while a StreamedResponse runs. Either way only this request's.
                    $pattern = '/^' . \preg_quote("stream-1: $token ", '/') . self::streamed($expected, $token) . '\n'
                        . \preg_quote("stream-buffer: $token", '/') . '\nstream-2: ' . self::streamed($expected, $token) . '\n$/';
                    self::assertMatchesRegularExpression($pattern, $body, $server->stderr());
                } else {
                    // It started from the booted state (its session may hold its own client's last token).
                    self::assertMatchesRegularExpression("/^start: service=none;request=$token;session=(none|tok[0-9a-f]{10});zone=" . \preg_quote($zone, '/') . ';agent=none;server=none;handler=default$/m', $body);
                    self::assertStringContainsString("[controller-buffer:$token]<h1>$token</h1>\nbefore: $expected\n", $body, $body);
                    self::assertStringContainsString("inner: $token\nafter: $expected\n", $body, $body);
                    self::assertStringContainsString("end: $expected\n", $body, $body);
                    // Its waits went through DoctrineBundle's connection, on Spindle's driver.
                    self::assertStringEndsWith("\nmysql: DoctrineBundle on Spindle\\Database\\Pdo\n", $body);
                }
                ++$checked;
            }
        }
        self::assertSame(self::ROUNDS * (self::WITH_SESSION + self::WITHOUT), $checked);
    }

    /** $expected as a pattern in which the current request and its session may also be none. */
    private static function streamed(string $expected, string $token): string
    {
        return \str_replace(
            [\preg_quote("request=$token", '/'), \preg_quote("session=$token", '/')],
            ["request=(?:$token|none)", "session=(?:$token|none)"],
            \preg_quote($expected, '/'),
        );
    }

    private function baselineZone(ServerProcess $server): string
    {
        $body = self::curl(['-s', $server->url('/isolation/tok0000000000')])['out'];
        self::assertSame(1, \preg_match('/^start: service=none;request=tok0000000000;session=none;zone=([^;]+);agent=none;server=none;handler=default$/m', $body), $body . $server->stderr());
        \preg_match('/zone=([^;]+)/', $body, $m);

        return $m[1];
    }
}
