<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony\Clients;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Symfony\Clients\RedisDsn;

final class RedisDsnTest extends TestCase
{
    /**
     * @return iterable<string, array{string, array<string, mixed>}>
     */
    public static function dsns(): iterable
    {
        yield 'host only' => ['redis://cache', ['host' => 'cache', 'port' => 6379, 'database' => 0, 'scheme' => 'tcp']];
        yield 'port and database' => ['redis://10.0.0.5:6380/3', ['host' => '10.0.0.5', 'port' => 6380, 'database' => 3]];
        // Symfony's reading: a user part alone is the password.
        yield 'password alone' => ['redis://s%40cret@cache:6379', ['host' => 'cache', 'password' => 's@cret']];
        yield 'user and password' => ['redis://app:secret@cache', ['username' => 'app', 'password' => 'secret']];
        yield 'tls' => ['rediss://cache:6390', ['scheme' => 'tls', 'port' => 6390]];
        yield 'ipv6' => ['redis://[::1]:6379', ['host' => '::1']];
        yield 'socket' => ['redis:///var/run/redis.sock', ['path' => '/var/run/redis.sock']];
        yield 'socket with password' => ['redis://secret@/var/run/redis.sock?dbindex=2', ['path' => '/var/run/redis.sock', 'password' => 'secret', 'database' => 2]];
        yield 'timeouts and dbindex' => ['redis://cache?timeout=2.5&read_timeout=7&dbindex=4&lazy=1&prefix=x', ['timeout' => 2.5, 'read_timeout' => 7.0, 'database' => 4]];
        yield 'empty host' => ['redis://:6379', ['host' => '127.0.0.1']];
    }

    /**
     * @param array<string, mixed> $expected
     *
     * @dataProvider dsns
     */
    public function testReadsWhatSymfonyReads(string $dsn, array $expected): void
    {
        $config = RedisDsn::config($dsn);
        self::assertNotNull($config);
        $actual = $config->toArray();
        foreach ($expected as $key => $value) {
            self::assertSame($value, $actual[$key] ?? null, "$dsn: $key");
        }
    }

    /** @return iterable<string, array{string}> */
    public static function foreign(): iterable
    {
        yield 'cluster' => ['redis://a:6379?redis_cluster=1'];
        yield 'sentinel' => ['redis://a:26379?redis_sentinel=mymaster'];
        yield 'several hosts' => ['redis:?host[a:6379]&host[b:6379]'];
        yield 'memcached' => ['memcached://cache:11211'];
        yield 'valkey' => ['valkey://cache'];
        yield 'a service id' => ['app.redis'];
        yield 'a database that is not a number' => ['redis://cache/sessions'];
    }

    /** @dataProvider foreign */
    public function testLeavesToSymfonyWhatSpindlesClientDoesNotServe(string $dsn): void
    {
        self::assertNull(RedisDsn::config($dsn));
    }
}
