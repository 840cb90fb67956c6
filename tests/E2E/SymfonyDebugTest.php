<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;

/**
 * The Symfony fixture booted with APP_DEBUG=1 (as in development): the debug container, the
 * traceable event dispatcher and the debug error page, served by `bin/spindle serve`.
 *
 * @group frameworks
 */
class SymfonyDebugTest extends SymfonyFixtureTestCase
{
    private static function server(): ServerProcess
    {
        $previous = \getenv('APP_DEBUG');
        // The real environment wins over the fixture's .env (APP_DEBUG=0), as Dotenv does it.
        \putenv('APP_DEBUG=1');
        try {
            return self::sharedServer(static::app(), ['--workers=1']);
        } finally {
            \putenv($previous === false ? 'APP_DEBUG' : "APP_DEBUG={$previous}");
        }
    }

    public function testAnswersHelloWithTheDebugKernel(): void
    {
        $response = self::parseCurlResponse(self::curl(['-s', '-i', self::server()->url('/hello')])['out']);
        self::assertSame(200, $response['status'], $response['body']);
        self::assertSame('Hello World', $response['body']);
        self::assertSame(['11'], $response['headers']['content-length'] ?? null);
        self::assertDirectoryExists(static::app() . '/var/cache/prod', 'the debug container is built in the environment\'s cache');
        self::assertNotEmpty(\glob(static::app() . '/var/cache/prod/App_KernelProdDebugContainer*'));
    }

    public function testErrorsShowTheirDetailInDebug(): void
    {
        $response = self::parseCurlResponse(self::curl(['-s', '-i', self::server()->url('/boom')])['out']);
        self::assertSame(500, $response['status']);
        self::assertStringContainsString('s3cr3t-in-exception', $response['body'], 'the debug error page');
        self::assertServerAnswers(self::server(), '/hello');
    }

    public function testOverlappingRequestsAndSessionsUnderTheTraceableDispatcher(): void
    {
        $server = self::server();
        self::assertServerAnswers($server, '/hello');
        $clients = [];
        for ($i = 0; $i < 3; ++$i) {
            $client = new RawClient($server->port());
            $client->send(self::get("/session/wait?ms=300&value=v{$i}", "Connection: close\r\n"));
            $clients[$i] = $client;
        }
        $ids = [];
        foreach ($clients as $i => $client) {
            $response = $client->readResponse(timeout: 10.0);
            self::assertSame(200, $response->status, $response->raw);
            self::assertSame("v{$i}", $response->json()['value']);
            $ids[$response->json()['id']] = true;
            @\unlink(self::sessionDirectory() . '/sess_' . $response->json()['id']);
        }
        self::assertCount(3, $ids);
        self::assertStringContainsString('Symfony: sessions use Spindle\'s storage', $server->stderr());
    }
}
