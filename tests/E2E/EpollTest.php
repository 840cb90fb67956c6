<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Loop\EventLoopKind;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * --event-loop=epoll: a worker holds more connections than select() can watch (descriptors
 * numbered 1024 and above), answers on all of them, and still makes room at its cap.
 *
 * The client sockets here are plain blocking ones with a timeout: the test's own select() would
 * fail on descriptors this high.
 */
final class EpollTest extends E2ETestCase
{
    private const HELLO = __DIR__ . '/../../examples/hello.php';
    private const IDLE = 1200;

    protected function setUp(): void
    {
        $problem = EventLoopKind::epollProblem();
        if ($problem !== null) {
            self::markTestSkipped($problem);
        }
    }

    public function testAWorkerHoldsMoreIdleConnectionsThanSelectCanWatchAndAnswersOnThem(): void
    {
        $server = ServerProcess::start(self::HELLO, ['--workers=1', '--event-loop=epoll', '--header-timeout=60', '--keepalive-timeout=60']);
        $idle = [];
        try {
            $idle = $this->openIdle($server, self::IDLE);
            $real = $this->connect($server);
            self::assertStringStartsWith('HTTP/1.1 200 OK', $this->request($real));
            // Nothing was closed to make room (the default cap with epoll is 10,000): the first and
            // the last idle connection are answered too, the last on a descriptor past 1024.
            self::assertStringStartsWith('HTTP/1.1 200 OK', $this->request($idle[0]));
            self::assertStringStartsWith('HTTP/1.1 200 OK', $this->request($idle[self::IDLE - 1]));
            self::assertStringNotContainsString('Worker failed', $server->stderr());
            self::assertStringNotContainsString('exited with status', $server->stderr());
        } finally {
            foreach ($idle as $socket) {
                \fclose($socket);
            }
            $server->stop();
        }
    }

    public function testAtTheCapTheIdleConnectionWaitingLongestMakesRoom(): void
    {
        $server = ServerProcess::start(self::HELLO, ['--workers=1', '--event-loop=epoll', '--max-connections=1100', '--header-timeout=60', '--keepalive-timeout=60']);
        $idle = [];
        try {
            $idle = $this->openIdle($server, 1150);
            $real = $this->connect($server);
            self::assertStringStartsWith('HTTP/1.1 200 OK', $this->request($real), 'answered before the 60 s header timeout');
            // The oldest idle connection was closed to make room: it reads end of file.
            self::assertSame('', (string) \fread($idle[0], 1));
            self::assertFalse(\stream_get_meta_data($idle[0])['timed_out'], 'closed by the server, not timed out');
            self::assertStringNotContainsString('exited with status', $server->stderr());
        } finally {
            foreach ($idle as $socket) {
                \fclose($socket);
            }
            $server->stop();
        }
    }

    /** @return list<resource> */
    private function openIdle(ServerProcess $server, int $count): array
    {
        $idle = [];
        for ($i = 0; $i < $count; ++$i) {
            $idle[] = $this->connect($server);
        }

        return $idle;
    }

    /** @return resource */
    private function connect(ServerProcess $server): mixed
    {
        $socket = \stream_socket_client('tcp://127.0.0.1:' . $server->port(), $errno, $error, 10.0);
        self::assertIsResource($socket, $error);
        \stream_set_timeout($socket, 20);

        return $socket;
    }

    /** @param resource $socket */
    private function request(mixed $socket): string
    {
        \fwrite($socket, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");

        return (string) \stream_get_contents($socket);
    }
}
