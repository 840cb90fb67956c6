<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/** Persistent connections and pipelining, over raw sockets. */
final class ConnectionReuseTest extends E2ETestCase
{
    private static function echoServer(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('echo.php'));
    }

    private static function delayServer(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('delay.php'));
    }

    public function testSeveralRequestsOnOneConnection(): void
    {
        $client = new RawClient(self::echoServer()->port());
        $ports = [];
        for ($i = 0; $i < 5; ++$i) {
            $client->send(self::get('/keep/' . $i));
            $response = $client->readResponse();
            self::assertSame(200, $response->status);
            self::assertNull($response->header('connection'));
            $data = $response->json();
            self::assertSame('/keep/' . $i, $data['path']);
            $ports[] = $data['server']['REMOTE_PORT'];
        }
        self::assertCount(1, \array_unique($ports), 'all requests came over one connection');
        self::assertFalse($client->isClosedByServer());

        // Connection: close is honoured after the response.
        $client->send(self::get('/last', "Connection: close\r\n"));
        $response = $client->readResponse();
        self::assertSame('/last', $response->json()['path']);
        self::assertSame('close', $response->header('connection'));
        self::assertTrue($client->waitForClose(2.0), 'the server closes after Connection: close');
        self::assertSame('', $client->buffered());
    }

    public function testHttp10ClosesByDefault(): void
    {
        $client = new RawClient(self::echoServer()->port());
        $client->send("GET /old HTTP/1.0\r\n\r\n");
        $response = $client->readResponse();
        self::assertSame('1.0', $response->protocol);
        self::assertSame(200, $response->status);
        self::assertSame('1.0', $response->json()['protocol']);
        self::assertTrue($client->waitForClose(2.0));
    }

    public function testHttp10KeepAliveOnRequest(): void
    {
        $client = new RawClient(self::echoServer()->port());
        $client->send("GET /one HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        $first = $client->readResponse();
        self::assertSame('keep-alive', $first->header('connection'));
        self::assertSame('/one', $first->json()['path']);

        $client->send("GET /two HTTP/1.0\r\n\r\n");
        $second = $client->readResponse();
        self::assertSame('/two', $second->json()['path']);
        self::assertTrue($client->waitForClose(2.0));
    }

    public function testPipelinedRequestsAreAnsweredInOrder(): void
    {
        $requests = '';
        $expected = [];
        for ($i = 0; $i < 10; ++$i) {
            // The fifth request takes 0.3 s; the ones after it must still come after it.
            $query = $i === 4 ? '?s=0.3' : '';
            $requests .= self::get("/p{$i}{$query}");
            $expected[] = "/p{$i}";
        }
        $client = new RawClient(self::delayServer()->port());
        $started = \microtime(true);
        $client->send($requests);
        $paths = [];
        for ($i = 0; $i < 10; ++$i) {
            $response = $client->readResponse();
            self::assertSame(200, $response->status);
            $paths[] = $response->json()['path'];
        }
        self::assertSame($expected, $paths);
        self::assertGreaterThanOrEqual(0.3, \microtime(true) - $started);
        self::assertSame('', $client->buffered());
    }

    public function testNothingIsAnsweredAfterConnectionClose(): void
    {
        $client = new RawClient(self::echoServer()->port());
        $client->send(self::get('/a', "Connection: close\r\n") . self::get('/b'));
        $response = $client->readResponse();
        self::assertSame('/a', $response->json()['path']);
        self::assertSame('close', $response->header('connection'));
        self::assertSame('', $client->readUntilClosed(2.0));
    }

    public function testPipelinedRequestsWithBodies(): void
    {
        $requests = '';
        for ($i = 0; $i < 5; ++$i) {
            $body = \str_repeat(\chr(65 + $i), 100 * ($i + 1));
            $requests .= "POST /b{$i} HTTP/1.1\r\nHost: a\r\nContent-Length: " . \strlen($body) . "\r\n\r\n" . $body;
        }
        $requests .= self::get('/end', "Connection: close\r\n");
        $client = new RawClient(self::echoServer()->port());
        $client->send($requests);
        for ($i = 0; $i < 5; ++$i) {
            $data = $client->readResponse()->json();
            self::assertSame("/b{$i}", $data['path']);
            self::assertSame(\str_repeat(\chr(65 + $i), 100 * ($i + 1)), $data['body']);
        }
        self::assertSame('/end', $client->readResponse()->json()['path']);
        self::assertTrue($client->waitForClose(2.0));
    }
}
