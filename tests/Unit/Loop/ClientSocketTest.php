<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Loop\ClientSocket;
use Spindle\Loop\ClientSocketException;
use Spindle\Loop\ClientSocketFailure;

final class ClientSocketTest extends TestCase
{
    /** @var list<resource> */
    private array $streams = [];

    protected function tearDown(): void
    {
        foreach ($this->streams as $stream) {
            if (\is_resource($stream)) {
                fclose($stream);
            }
        }
        $this->streams = [];
    }

    /** @return array{resource, string} a listening server on 127.0.0.1 and its address */
    private function server(): array
    {
        $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        self::assertIsResource($server, $errstr);
        $this->streams[] = $server;

        return [$server, 'tcp://' . stream_socket_get_name($server, false)];
    }

    /**
     * Runs $open in a fiber on the loop.
     *
     * @param \Closure(): mixed $open
     */
    private static function inFiber(\Closure $open): mixed
    {
        $result = null;
        EventLoop::queue(static function () use ($open, &$result): void {
            try {
                $result = $open();
            } catch (\Throwable $e) {
                $result = $e;
            }
        });
        EventLoop::run();

        return $result;
    }

    public function testConnectsNonBlockingAndUnbuffered(): void
    {
        [$server, $address] = $this->server();
        $socket = self::inFiber(static fn () => ClientSocket::connect($address, hrtime(true) / 1e9 + 30));
        self::assertIsResource($socket);
        $this->streams[] = $socket;
        self::assertFalse(stream_get_meta_data($socket)['blocked']);
        $peer = stream_socket_accept($server, 5);
        self::assertIsResource($peer);
        $this->streams[] = $peer;
        fwrite($peer, 'hello');
        stream_set_blocking($socket, true);
        self::assertSame('hello', fread($socket, 100));
    }

    public function testAClosedPortIsRefusedWithTheSystemsReason(): void
    {
        [$server, $address] = $this->server();
        fclose($server); // nothing listens there now
        $error = self::inFiber(static fn () => ClientSocket::connect($address, hrtime(true) / 1e9 + 30));
        self::assertInstanceOf(ClientSocketException::class, $error);
        self::assertSame(ClientSocketFailure::Refused, $error->failure);
        if (\function_exists('socket_import_stream')) {
            self::assertSame(\SOCKET_ECONNREFUSED, $error->errno);
            self::assertSame(socket_strerror(\SOCKET_ECONNREFUSED), $error->reason);
        }
    }

    public function testAMissingUnixSocketFailsToOpen(): void
    {
        $error = self::inFiber(static fn () => ClientSocket::connect(ClientSocket::uri('', 0, sys_get_temp_dir() . '/spindle-no-such-' . bin2hex(random_bytes(4)) . '.sock'), null));
        self::assertInstanceOf(ClientSocketException::class, $error);
        self::assertSame(ClientSocketFailure::Open, $error->failure);
        self::assertNotSame('', $error->reason);
    }

    public function testTlsAgainstAPeerThatHangsUpFailsWithTheHandshakesWords(): void
    {
        [$server, $address] = $this->server();
        $error = self::inFiber(static function () use ($server, $address): mixed {
            $socket = ClientSocket::connect($address, hrtime(true) / 1e9 + 30);
            $peer = stream_socket_accept($server, 5);
            self::assertIsResource($peer);
            fwrite($peer, "not TLS\r\n");
            fclose($peer);
            try {
                ClientSocket::enableTls($socket, ['verify_peer' => false], hrtime(true) / 1e9 + 30);
            } finally {
                fclose($socket);
            }

            return null;
        });
        self::assertInstanceOf(ClientSocketException::class, $error);
        self::assertSame(ClientSocketFailure::Tls, $error->failure);
    }

    public function testTlsAgainstASilentPeerEndsAtTheDeadline(): void
    {
        [$server, $address] = $this->server();
        $before = EventLoop::getIdentifiers();
        $error = self::inFiber(function () use ($server, $address): mixed {
            $socket = ClientSocket::connect($address, hrtime(true) / 1e9 + 30);
            $peer = stream_socket_accept($server, 5);
            self::assertIsResource($peer);
            $this->streams[] = $peer; // accepted, never answers
            try {
                ClientSocket::enableTls($socket, ['verify_peer' => false], hrtime(true) / 1e9 + 0.05);
            } finally {
                fclose($socket);
            }

            return null;
        });
        self::assertInstanceOf(ClientSocketException::class, $error);
        self::assertSame(ClientSocketFailure::TlsTimedOut, $error->failure);
        self::assertSame($before, EventLoop::getIdentifiers(), 'no watcher or timer is left behind');
    }
}
