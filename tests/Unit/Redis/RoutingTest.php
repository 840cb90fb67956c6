<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Redis;

use PHPUnit\Framework\TestCase;
use Spindle\Redis\Commands;
use Spindle\Redis\PhpRedis\ErrorPolicy;
use Spindle\Redis\PhpRedis\Reply;
use Spindle\Redis\Protocol\ErrorReply;
use Spindle\Redis\Protocol\Map;
use Spindle\Redis\Protocol\Status;

/** Which commands block or need a connection of their own; phpredis's reply and error rules. */
final class RoutingTest extends TestCase
{
    /** @return array<string, array{list<string>, float|null}> */
    public static function blocking(): array
    {
        return [
            'BLPOP' => [['BLPOP', 'a', 'b', '2.5'], 2.5],
            'brpop lower case' => [['brpop', 'a', '0'], 0.0],
            'BLMOVE' => [['BLMOVE', 'a', 'b', 'LEFT', 'RIGHT', '1'], 1.0],
            'BZPOPMIN' => [['BZPOPMIN', 'z', '3'], 3.0],
            'BLMPOP timeout first' => [['BLMPOP', '4', '1', 'l', 'LEFT'], 4.0],
            'XREAD BLOCK ms' => [['XREAD', 'COUNT', '1', 'BLOCK', '1500', 'STREAMS', 's', '$'], 1.5],
            'XREAD without BLOCK' => [['XREAD', 'STREAMS', 's', '0'], null],
            'XREAD a stream named BLOCK' => [['XREAD', 'STREAMS', 'BLOCK', '0'], null],
            'XREADGROUP BLOCK 0' => [['XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '0', 'STREAMS', 's', '>'], 0.0],
            'WAIT ms' => [['WAIT', '1', '250'], 0.25],
            'GET' => [['GET', 'k'], null],
        ];
    }

    /**
     * @dataProvider blocking
     *
     * @param list<string> $command
     */
    public function testBlockingTimeout(array $command, ?float $expected): void
    {
        self::assertSame($expected, Commands::blockingTimeout($command));
    }

    public function testSessionCommands(): void
    {
        foreach (['MULTI', 'exec', 'WATCH', 'subscribe', 'SELECT', 'AUTH'] as $name) {
            self::assertTrue(Commands::needsSession($name), $name);
        }
        foreach (['GET', 'EVAL', 'PUBLISH'] as $name) {
            self::assertFalse(Commands::needsSession($name), $name);
        }
    }

    public function testPhpRedisReplyConventions(): void
    {
        self::assertTrue(Reply::Bool->apply(new Status('OK')));
        self::assertFalse(Reply::Bool->apply(0));
        self::assertFalse(Reply::Str->apply(null));
        self::assertSame(['f' => 'v', 'g' => false], Reply::Assoc->apply(['f', 'v', 'g', null]));
        self::assertSame(['a' => 1.5, 'b' => INF], Reply::Scores->apply(['a', '1.5', 'b', 'inf']));
        self::assertSame(['a' => '1'], Reply::Assoc->apply(new Map([['a', '1']])));
        self::assertSame([], Reply::List->apply(null));
        self::assertSame(4, Reply::Type->apply(new Status('zset')));
        self::assertTrue(Reply::raw(new Status('QUEUED')));
        self::assertFalse(Reply::Int->apply('6'));
        self::assertFalse(Reply::Str->apply(new ErrorReply('ERR x')));
    }

    public function testPhpRedisErrorRule(): void
    {
        foreach (['ERR syntax error', 'WRONGTYPE Operation', 'NOSCRIPT No matching script', 'BUSYGROUP exists', 'NOGROUP none'] as $returned) {
            self::assertFalse(ErrorPolicy::throws(new ErrorReply($returned)), $returned);
        }
        foreach (['NOAUTH Authentication required.', 'OOM command not allowed', 'READONLY replica', 'ERR AUTH <password> called', 'WRONGPASS invalid', 'LOADING'] as $thrown) {
            self::assertTrue(ErrorPolicy::throws(new ErrorReply($thrown)), $thrown);
        }
        self::assertInstanceOf(\RedisException::class, ErrorPolicy::exception('x'));
    }
}
