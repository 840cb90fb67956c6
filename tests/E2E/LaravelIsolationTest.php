<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LaravelFixture;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Request after request through one worker (so through the same app instance): nothing one
 * request changes is seen by the next.
 */
class LaravelIsolationTest extends E2ETestCase
{
    /** The Laravel app this class serves; a subclass runs the same tests on another. */
    protected static function app(): string
    {
        return LaravelFixture::path();
    }

    private static function server(): ServerProcess
    {
        LaravelFixture::useTestDatabase();

        return self::sharedServer(static::app(), ['--workers=1']);
    }

    /** @return array{status: int, protocol: string, headers: array<string, list<string>>, body: string} */
    private static function fetch(string $path, ?string $jar = null): array
    {
        $arguments = ['-s', '-i'];
        if ($jar !== null) {
            \array_push($arguments, '-b', $jar, '-c', $jar);
        }
        $result = self::curl([...$arguments, self::server()->url($path)]);
        self::assertSame(0, $result['code'], $result['err']);

        return self::parseCurlResponse($result['out']);
    }

    public function testServesTheAppWithItsViewsAndSharedData(): void
    {
        $response = self::fetch('/view?title=First');
        self::assertSame(200, $response['status']);
        self::assertStringContainsString('<title>First - Fixture</title>', $response['body']);
        self::assertStringContainsString('<script src="/First.js"></script>', $response['body']);
        // Sections and stacks of the last render are gone: a second render holds only its own.
        $second = self::fetch('/view?title=Second')['body'];
        self::assertStringContainsString('<title>Second - Fixture</title>', $second);
        self::assertStringNotContainsString('First', $second);
    }

    public function testALoggedInUserIsNotSeenByTheNextAnonymousRequest(): void
    {
        $jar = $this->cookieJar();
        self::assertSame('logged in as user-7', self::fetch('/login/7', $jar)['body']);
        self::assertSame('guest', self::fetch('/whoami')['body']);
        self::assertSame('user-7', self::fetch('/whoami', $jar)['body']);
        self::assertSame('guest', self::fetch('/whoami')['body']);
    }

    public function testALocaleSetByOneRequestIsNotSeenByTheNext(): void
    {
        self::assertSame('fr', self::fetch('/locale/fr')['body']);
        self::assertSame('en en required', self::fetch('/locale')['body']);
    }

    public function testSessionDataBelongsToItsCookie(): void
    {
        $alice = $this->cookieJar();
        $bob = $this->cookieJar();
        self::assertSame('stored alpha', self::fetch('/session/put/alpha', $alice)['body']);
        self::assertSame('stored beta', self::fetch('/session/put/beta', $bob)['body']);
        self::assertSame('none', self::fetch('/session/get')['body']);
        self::assertSame('alpha', self::fetch('/session/get', $alice)['body']);
        self::assertSame('beta', self::fetch('/session/get', $bob)['body']);
        self::assertSame('none', self::fetch('/session/get')['body']);
    }

    public function testQueuedCookiesAreSentOnce(): void
    {
        $queued = self::fetch('/cookie/queue');
        self::assertSame('queued', $queued['body']);
        self::assertNotEmpty(\array_filter($queued['headers']['set-cookie'] ?? [], static fn (string $c): bool => \str_starts_with($c, 'flavour=')));
        $next = self::fetch('/hello');
        self::assertSame('Hello from Laravel', $next['body']);
        self::assertSame([], \array_values(\array_filter($next['headers']['set-cookie'] ?? [], static fn (string $c): bool => \str_starts_with($c, 'flavour='))));
    }

    public function testAConfigChangeLastsOneRequest(): void
    {
        self::assertSame('changed', self::fetch('/config/set')['body']);
        self::assertSame('hello NULL', self::fetch('/config/get')['body']);
    }

    public function testAnExceptionIsA500WithoutDetailsAndTheWorkerServesOn(): void
    {
        $response = self::fetch('/boom');
        self::assertSame(500, $response['status']);
        self::assertStringContainsString('Server Error', $response['body']);
        self::assertStringNotContainsString('secret detail', $response['body']);
        self::assertStringNotContainsString('web.php', $response['body']);
        // Reported through the app's exception handler (its log goes to stderr).
        self::assertTrue(self::server()->waitForLog('secret detail of the failure'));
        self::assertSame('Hello from Laravel', self::fetch('/hello')['body']);
    }

    public function testTerminableMiddlewareRunsAfterEveryRequest(): void
    {
        $log = static::app() . '/storage/logs/terminated.log';
        $marker = '/hello?terminate=' . \bin2hex(\random_bytes(4));
        self::assertSame(200, self::fetch($marker)['status']);
        self::assertTrue(self::eventually(static fn (): bool => \str_contains((string) @\file_get_contents($log), $marker . ' 200'), 5.0));
    }
}
