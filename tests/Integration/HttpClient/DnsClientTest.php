<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\HttpClient\ConnectException;
use Spindle\HttpClient\Dns\DnsClient;
use Spindle\HttpClient\Resolver;
use Spindle\Tests\Unit\HttpClient\DnsCodecTest;

/**
 * Name lookups over UDP on the event loop, against a name server in this process that answers
 * after 200 ms: lookups in several fibers wait together, search domains apply, the answer is
 * cached, a silent server costs the timeout.
 * Five lookups of one name at once share one query.
 */
final class DnsClientTest extends TestCase
{
    /** @var resource|null */
    private $server = null;
    private ?string $watcher = null;
    private int $queries = 0;
    /** @var list<string> */
    private array $timers = [];

    protected function tearDown(): void
    {
        foreach ([$this->watcher, ...$this->timers] as $id) {
            if ($id !== null) {
                EventLoop::cancel($id);
            }
        }
        if (\is_resource($this->server)) {
            \fclose($this->server);
        }
    }

    private function nameServer(bool $silent = false): string
    {
        $server = \stream_socket_server('udp://127.0.0.1:0', $errno, $errstr, \STREAM_SERVER_BIND);
        self::assertIsResource($server, $errstr);
        \stream_set_blocking($server, false);
        $this->server = $server;
        $this->watcher = EventLoop::onReadable($server, function (string $id, $server) use ($silent): void {
            $query = \stream_socket_recvfrom($server, 512, 0, $peer);
            if ($query === false || $query === '' || $silent) {
                return;
            }
            ++$this->queries;
            $labels = [];
            for ($at = 12; ($length = \ord($query[$at] ?? "\0")) > 0; $at += 1 + $length) {
                $labels[] = \substr($query, $at + 1, $length);
            }
            $known = \strtolower(\implode('.', $labels)) === 'api.test';
            $type = \unpack('n', \substr($query, -4, 2))[1] ?? 0;
            $reply = $known && $type === 1 ? DnsCodecTest::answer($query) : DnsCodecTest::answer($query, rcode: 3);
            $this->timers[] = EventLoop::delay(0.2, static function () use ($server, $reply, $peer): void {
                \stream_socket_sendto($server, $reply, 0, $peer);
            });
        });

        // The loop runs as long as the lookups do, not for the server.
        EventLoop::unreference($this->watcher);

        return (string) \stream_socket_get_name($server, false);
    }

    public function testLookupsInFibersWaitTogetherAndAreCached(): void
    {
        $resolver = new Resolver('/dev/null', 60.0, new DnsClient([$this->nameServer()]));
        $results = [];
        $started = \microtime(true);
        for ($i = 0; $i < 5; ++$i) {
            EventLoop::queue(static function () use ($resolver, &$results): void {
                $results[] = $resolver->resolve('api.test', \hrtime(true) / 1e9 + 5);
            });
        }
        EventLoop::run();
        self::assertSame(\array_fill(0, 5, '192.0.2.7'), $results);
        self::assertLessThan(0.9, \microtime(true) - $started, 'five lookups of 0.2 s overlapped');
        self::assertSame(1, $this->queries, 'the five lookups shared one query');
        $queries = $this->queries;
        self::assertSame('192.0.2.7', $resolver->resolve('api.test'));
        self::assertSame($queries, $this->queries, 'answered from the cache');
    }

    public function testSearchDomainsAndUnknownNames(): void
    {
        $dns = new DnsClient([$this->nameServer()], ['test'], 1);
        self::assertSame('192.0.2.7', $dns->lookup('api', null)[0]);
        $this->expectException(ConnectException::class);
        $this->expectExceptionMessage('no such name');
        (new Resolver('/dev/null', 60.0, $dns))->resolve('nothing.example');
    }

    public function testASilentServerCostsTheTimeout(): void
    {
        $resolver = new Resolver('/dev/null', 60.0, new DnsClient([$this->nameServer(true)], [], 1, 0.3, 1));
        $started = \microtime(true);
        try {
            $resolver->resolve('api.test');
            self::fail('resolved');
        } catch (ConnectException $e) {
            self::assertStringContainsString('api.test', $e->getMessage());
        }
        self::assertLessThan(2.0, \microtime(true) - $started);
    }
}
