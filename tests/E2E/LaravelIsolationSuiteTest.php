<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Many clients at once in one worker — logged in as users of their own or anonymous — each
 * setting every kind of state it can reach from a token of its own (container, config, view data,
 * session, locale, Carbon, time zone, mbstring, ini, superglobals, log context, error handler,
 * output buffers) and waiting on MySQL and on the loop in the middleware, the route, in the middle
 * of a Blade render and in a streamed body; then reading it all back. No response may hold another
 * client's token, and each must hold its own values wherever it reads them.
 *
 * The negative control plants a leak (a static property shared by the worker's requests) and shows
 * that the same check finds it.
 */
class LaravelIsolationSuiteTest extends E2ETestCase
{
    /** The Laravel app this class serves; a subclass runs the same tests on another. */
    protected static function app(): string
    {
        return LaravelFixture::path();
    }

    private const LOGGED_IN = 40;
    private const GUESTS = 10;
    private const ROUNDS = 3;
    private const LOCALES = ['fr', 'de', 'pt', 'es', 'it', 'nl'];
    private const ZONES = ['Asia/Tokyo', 'America/Lima', 'Europe/Oslo', 'Africa/Cairo', 'Australia/Perth', 'Pacific/Fiji'];
    private const ENCODINGS = ['ISO-8859-1', 'Windows-1252', 'ISO-8859-15', 'ASCII', 'UTF-8', 'ISO-8859-2'];



    private static function server(): ServerProcess
    {
        LaravelFixture::useTestDatabase();

        return self::sharedServer(static::app(), ['--workers=1', '--concurrency=64']);
    }

    public function testConcurrentRequestsNeverSeeEachOthersState(): void
    {
        $server = self::server();
        $clients = $this->clients($server);
        $baseline = $this->baseline($server);
        $owner = [];
        $checked = 0;
        for ($round = 0; $round < self::ROUNDS; ++$round) {
            $batch = [];
            foreach ($clients as $i => $client) {
                $token = 'tok' . \bin2hex(\random_bytes(5));
                $owner[$token] = $i;
                $stream = ($i + $round) % 3 === 0;
                $batch[] = [$i, $token, $stream, [...$client['args'], $server->url('/isolation/' . $token . ($stream ? '/stream' : ''))]];
            }
            $outputs = LaravelFixture::curlAll(\array_column($batch, 3));
            foreach ($batch as $n => [$i, $token, $stream]) {
                $body = $outputs[$n];
                self::assertSame([], self::foreignTokens($body, $i, $owner), "Request $token of client $i holds other clients' tokens:\n$body");
                $expected = self::expectedLine($token, $clients[$i]['user']);
                if ($stream) {
                    self::assertStringContainsString("stream-1: $token ", $body, $body . $server->stderr());
                    self::assertStringContainsString("stream-buffer: $token\n", $body, 'the body\'s own buffer across a wait');
                    // The body prints with its request's state, before and after its waits.
                    self::assertStringContainsString("stream-1: $token $expected\n", $body, $body);
                    self::assertStringContainsString("stream-2: $expected\n", $body, $body);
                } else {
                    foreach (['controller', 'before', 'after', 'end'] as $point) {
                        self::assertStringContainsString("$point: $expected", $body, "at $point:\n$body\n" . $server->stderr());
                    }
                    self::assertStringContainsString("part-end: $token $expected", $body);
                    self::assertSame(1, \substr_count($body, "row: $token\n"), $body);
                    self::assertStringContainsString("middleware: [middleware-buffer:$token]\n", $body, 'the middleware\'s buffer holds only its own output');
                    self::assertStringContainsString('start: ' . self::withUser($baseline, $clients[$i]['user']), \preg_replace('/session=tok[0-9a-f]+/', 'session=none', $body) ?? '', "the request started from the booted state:\n$body");
                    self::assertStringContainsString('planted: none', $body);
                }
                ++$checked;
            }
        }
        self::assertSame(self::ROUNDS * (self::LOGGED_IN + self::GUESTS), $checked);
    }

    public function testTheCheckFindsAPlantedLeak(): void
    {
        $server = self::server();
        $owner = [];
        $requests = [];
        for ($i = 0; $i < 20; ++$i) {
            $token = 'tok' . \bin2hex(\random_bytes(5));
            $owner[$token] = $i;
            $requests[] = [$server->url('/isolation/' . $token . '?plant=1')];
        }
        $foreign = 0;
        foreach (LaravelFixture::curlAll($requests) as $i => $body) {
            self::assertStringContainsString('controller: ', $body);
            $foreign += \count(self::foreignTokens($body, $i, $owner));
        }
        self::assertGreaterThan(0, $foreign, 'a static property shared by concurrent requests is caught');
    }

    /** @return array<int, array{args: list<string>, user: string}> */
    private function clients(ServerProcess $server): array
    {
        $clients = [];
        for ($i = 0; $i < self::LOGGED_IN; ++$i) {
            $jar = $this->cookieJar();
            $user = (string) (500 + $i);
            $login = self::curl(['-s', '-b', $jar, '-c', $jar, $server->url('/login/' . $user)]);
            self::assertSame('logged in as user-' . $user, $login['out'], $server->stderr());
            $clients[] = ['args' => ['-b', $jar], 'user' => $user];
        }
        for ($i = 0; $i < self::GUESTS; ++$i) {
            $clients[] = ['args' => [], 'user' => 'guest'];
        }

        return $clients;
    }

    /** The state a guest request starts from, as the fixture reports it. */
    private function baseline(ServerProcess $server): string
    {
        $body = self::curl(['-s', $server->url('/isolation/tok0000000000')])['out'];
        self::assertSame(1, \preg_match('/^start: (.*)$/m', $body, $m), $body);
        self::assertStringContainsString('instance=none;config=none;shared=none;session=none;user=guest;locale=en;carbon=en;zone=UTC;', $m[1]);

        return $m[1];
    }

    /**
     * The tokens in $body that belong to other clients than $client.
     *
     * @param array<string, int> $owner
     *
     * @return list<string>
     */
    private static function foreignTokens(string $body, int $client, array $owner): array
    {
        \preg_match_all('/tok[0-9a-f]{10}/', $body, $m);
        $foreign = [];
        foreach (\array_unique($m[0]) as $token) {
            if (($owner[$token] ?? $client) !== $client) {
                $foreign[] = $token;
            }
        }

        return $foreign;
    }

    private static function expectedLine(string $token, string $user): string
    {
        $n = (int) \hexdec(\substr($token, -2));
        $pick = static fn (array $list): string => $list[$n % \count($list)];

        return \implode(';', [
            "instance=$token", "config=$token", "shared=$token", "session=$token", "user=$user",
            'locale=' . $pick(self::LOCALES), 'carbon=' . $pick(self::LOCALES), 'zone=' . $pick(self::ZONES),
            'mb=' . $pick(self::ENCODINGS), 'precision=' . (5 + $n % 9), "agent=$token", "server=$token",
            "get=$token", "log=$token", "handler=$token",
        ]);
    }

    private static function withUser(string $baseline, string $user): string
    {
        return \str_replace('user=guest', "user=$user", $baseline);
    }
}
