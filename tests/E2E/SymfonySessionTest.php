<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\RawResponse;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;

/**
 * framework.session under Spindle (the fixture has Symfony's recipe: PHP's files handler, the
 * native storage factory, cookie_secure auto, SameSite lax), served unchanged: each request
 * sees its own session, also while others run at once in the same worker.
 *
 * @group frameworks
 */
class SymfonySessionTest extends SymfonyFixtureTestCase
{
    /** @var array<string, true> session ids the tests made, whose files are removed afterwards */
    private static array $ids = [];

    public static function tearDownAfterClass(): void
    {
        $directory = self::sessionDirectory();
        foreach (\array_keys(self::$ids) as $id) {
            @\unlink($directory . '/sess_' . $id);
        }
        self::$ids = [];
        parent::tearDownAfterClass();
    }

    private static function server(): ServerProcess
    {
        return self::sharedServer(static::app(), ['--workers=1']);
    }

    public function testValuePersistsAcrossRequestsWithTheCookie(): void
    {
        $first = self::request('/session/set?value=apple');
        self::assertSame(200, $first->status, $first->raw);
        $cookie = self::sessionCookie($first);
        self::assertNotNull($cookie, $first->raw);
        self::assertSame($first->json()['id'], $cookie['value']);
        self::assertMatchesRegularExpression('/^[0-9a-v]{26}$/', $cookie['value'], 'PHP\'s sid_length and sid_bits_per_character');
        self::assertSame(['path' => '/', 'httponly' => '', 'samesite' => 'lax'], $cookie['attributes']);
        // Symfony's session listener: a response that used the session is private.
        self::assertStringContainsString('private', (string) $first->header('cache-control'));
        self::assertStringContainsString('Symfony: sessions use Spindle\'s storage', self::server()->stderr());

        $second = self::request('/session/get', $cookie['value']);
        self::assertSame('apple', $second->json()['value']);
        self::assertSame($cookie['value'], $second->json()['id']);
        // The id did not change: no new cookie.
        self::assertNull(self::sessionCookie($second), $second->raw);

        // The data sits where PHP's files handler keeps it, in PHP's format.
        $file = self::sessionDirectory() . '/sess_' . $cookie['value'];
        self::assertFileExists($file);
        self::assertStringStartsWith('_sf2_attributes|a:1:{s:5:"value";s:5:"apple";}', (string) \file_get_contents($file));
    }

    public function testRequestWithoutTheCookieSeesNoSession(): void
    {
        $set = self::request('/session/set?value=secret');
        self::assertNotNull(self::sessionCookie($set));
        // The same kernel serves the next request (one at a time): it must not carry the session over.
        $anonymous = self::request('/session/get');
        self::assertNull($anonymous->json()['value'], $anonymous->raw);
        self::assertNotSame($set->json()['id'], $anonymous->json()['id']);
        // Nothing stored, so no cookie either.
        self::assertNull(self::sessionCookie($anonymous), $anonymous->raw);

        $unknown = self::request('/session/get', 'unknownunknownunknownunknown1');
        self::assertNull($unknown->json()['value']);
        self::assertNotSame('unknownunknownunknownunknown1', $unknown->json()['id'], 'strict mode: an id the server never made is not taken');
    }

    public function testOverlappingRequestsEachSeeTheirOwnSession(): void
    {
        $server = self::server();
        $ids = [];
        for ($i = 0; $i < 4; ++$i) {
            $ids[$i] = (string) self::sessionCookie(self::request("/session/set?value=before{$i}"))['value'];
        }
        $clients = [];
        for ($i = 0; $i < 6; ++$i) {
            // Four with their own session, two without a cookie, all waiting at once.
            $cookie = isset($ids[$i]) ? "Cookie: PHPSESSID={$ids[$i]}\r\n" : '';
            $client = new RawClient($server->port());
            $client->send(self::get("/session/wait?ms=300&value=during{$i}", $cookie . "Connection: close\r\n"));
            $clients[$i] = $client;
        }
        $seen = [];
        foreach ($clients as $i => $client) {
            $response = $client->readResponse(timeout: 10.0);
            self::assertSame(200, $response->status, $response->raw);
            $data = $response->json();
            self::assertSame("during{$i}", $data['value'], 'after the wait, the session is still this request\'s');
            self::assertTrue($data['same_id']);
            if (isset($ids[$i])) {
                self::assertSame($ids[$i], $data['id']);
                self::assertNull(self::sessionCookie($response));
            } else {
                $cookie = self::sessionCookie($response);
                self::assertNotNull($cookie, $response->raw);
                self::assertSame($data['id'], $cookie['value']);
                $ids[$i] = $data['id'];
            }
            $seen[$data['id']] = true;
        }
        self::assertCount(6, $seen, 'six sessions');
        foreach ($ids as $i => $id) {
            self::assertSame("during{$i}", self::request('/session/get', $id)->json()['value']);
        }
        $pids = \array_unique(\array_map(static fn (int $i): mixed => self::request('/visits')->json()['pid'], [0, 1]));
        self::assertCount(1, $pids, 'one worker');
    }

    public function testLoginGivesANewIdAndDestroysTheOldSession(): void
    {
        $old = (string) self::sessionCookie(self::request('/session/set?value=cart'))['value'];
        $login = self::request('/session/login?user=ada', $old);
        $data = $login->json();
        self::assertSame($old, $data['before']);
        self::assertNotSame($old, $data['id']);
        self::assertSame(['cart', 'ada'], [$data['value'], $data['user']], 'the data moves to the new id');
        $cookie = self::sessionCookie($login);
        self::assertNotNull($cookie, $login->raw);
        self::assertSame($data['id'], $cookie['value']);

        $after = self::request('/session/get', $data['id'])->json();
        self::assertSame(['cart', 'ada'], [$after['value'], $after['user']]);
        // The old id is gone: whoever kept it gets a fresh, empty session.
        $stale = self::request('/session/get', $old)->json();
        self::assertNull($stale['user']);
        self::assertNotSame($old, $stale['id']);
        self::assertFileDoesNotExist(self::sessionDirectory() . '/sess_' . $old);
    }

    public function testLogoutClearsTheCookieAndTheData(): void
    {
        $id = (string) self::sessionCookie(self::request('/session/set?value=gone'))['value'];
        $logout = self::request('/session/logout', $id);
        $cookie = self::sessionCookie($logout);
        self::assertNotNull($cookie, $logout->raw);
        self::assertSame('deleted', $cookie['value']);
        self::assertSame('0', $cookie['attributes']['max-age'] ?? null);
        self::assertNull(self::request('/session/get', $id)->json()['value']);
    }

    public function testCookieIsSecureWhenTheRequestCameOverHttps(): void
    {
        $https = self::request('/session/set?value=tls', null, "X-Forwarded-Proto: https\r\n");
        $cookie = self::sessionCookie($https);
        self::assertNotNull($cookie, $https->raw);
        self::assertArrayHasKey('secure', $cookie['attributes']);
        // The next plain request (same kernel, same process) is not affected.
        $plain = self::sessionCookie(self::request('/session/set?value=plain'));
        self::assertNotNull($plain);
        self::assertArrayNotHasKey('secure', $plain['attributes']);
    }

    private static function request(string $path, ?string $sessionId = null, string $headers = ''): RawResponse
    {
        $cookie = $sessionId === null ? '' : "Cookie: PHPSESSID={$sessionId}\r\n";

        return self::rawRequest(self::server(), self::get($path, $cookie . $headers . "Connection: close\r\n"));
    }

    /**
     * The PHPSESSID Set-Cookie of a response, if any.
     *
     * @return array{value: string, attributes: array<string, string>}|null
     */
    private static function sessionCookie(RawResponse $response): ?array
    {
        foreach ($response->headers['set-cookie'] ?? [] as $line) {
            $parts = \array_map('trim', \explode(';', $line));
            [$name, $value] = \explode('=', (string) \array_shift($parts), 2) + [1 => ''];
            if ($name !== 'PHPSESSID') {
                continue;
            }
            $attributes = [];
            foreach ($parts as $part) {
                [$key, $attribute] = \explode('=', $part, 2) + [1 => ''];
                $attributes[\strtolower($key)] = $attribute;
            }
            unset($attributes['expires']);
            if ($value !== 'deleted') {
                self::$ids[$value] = true;
            }

            return ['value' => $value, 'attributes' => $attributes];
        }

        return null;
    }
}
