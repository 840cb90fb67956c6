<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Redis;

use PHPUnit\Framework\TestCase;
use Spindle\Redis\Protocol\Aggregate;
use Spindle\Redis\Protocol\AggregateKind;
use Spindle\Redis\Protocol\BigNumber;
use Spindle\Redis\Protocol\ErrorReply;
use Spindle\Redis\Protocol\Map;
use Spindle\Redis\Protocol\ProtocolException;
use Spindle\Redis\Protocol\RespEncoder;
use Spindle\Redis\Protocol\RespParser;
use Spindle\Redis\Protocol\Status;
use Spindle\Redis\Protocol\Verbatim;

final class RespParserTest extends TestCase
{
    /** @return array<string, array{string, list<mixed>}> */
    public static function streams(): array
    {
        return [
            'simple string' => ["+OK\r\n", [new Status('OK')]],
            'error' => ["-WRONGTYPE Operation against a key\r\n", [new ErrorReply('WRONGTYPE Operation against a key')]],
            'integers' => [":0\r\n:-42\r\n:9223372036854775807\r\n", [0, -42, PHP_INT_MAX]],
            'bulk' => ["\$5\r\nhello\r\n", ['hello']],
            'empty bulk' => ["\$0\r\n\r\n", ['']],
            'binary bulk with CRLF inside' => ["\$6\r\na\r\n\0\r\n\r\n", ["a\r\n\0\r\n"]],
            'nil bulk' => ["\$-1\r\n", [null]],
            'nil array' => ["*-1\r\n", [null]],
            'empty array' => ["*0\r\n", [[]]],
            'nested array' => ["*3\r\n:1\r\n*2\r\n\$1\r\na\r\n\$-1\r\n+x\r\n", [[1, ['a', null], new Status('x')]]],
            'array holding an error' => ["*2\r\n+OK\r\n-ERR no\r\n", [[new Status('OK'), new ErrorReply('ERR no')]]],
            'null' => ["_\r\n", [null]],
            'doubles' => [",1.5\r\n,-0.25\r\n,1e3\r\n,inf\r\n,-inf\r\n", [1.5, -0.25, 1000.0, INF, -INF]],
            'booleans' => ["#t\r\n#f\r\n", [true, false]],
            'blob error' => ["!11\r\nSYNTAX oops\r\n", [new ErrorReply('SYNTAX oops')]],
            'verbatim' => ["=15\r\ntxt:Some string\r\n", [new Verbatim('txt', 'Some string')]],
            'big number' => ["(3492890328409238509324850943850943825024385\r\n", [new BigNumber('3492890328409238509324850943850943825024385')]],
            'map' => ["%2\r\n+first\r\n:1\r\n\$6\r\nsecond\r\n,2.5\r\n", [new Map([[new Status('first'), 1], ['second', 2.5]])]],
            'set' => ["~2\r\n:1\r\n:2\r\n", [new Aggregate(AggregateKind::Set, [1, 2])]],
            'push' => [">3\r\n\$7\r\nmessage\r\n\$2\r\nch\r\n\$2\r\nhi\r\n", [new Aggregate(AggregateKind::Push, ['message', 'ch', 'hi'])]],
            'attribute dropped' => ["|1\r\n+key-popularity\r\n*1\r\n:1\r\n*2\r\n:1\r\n:2\r\n", [[1, 2]]],
            'attribute inside an array' => ["*2\r\n|1\r\n+a\r\n+b\r\n:1\r\n:2\r\n", [[1, 2]]],
            'several replies' => ["+OK\r\n:1\r\n\$3\r\nfoo\r\n", [new Status('OK'), 1, 'foo']],
        ];
    }

    /**
     * @dataProvider streams
     *
     * @param list<mixed> $expected
     */
    public function testWhole(string $stream, array $expected): void
    {
        self::assertEquals($expected, (new RespParser())->push($stream));
    }

    /**
     * @dataProvider streams
     *
     * @param list<mixed> $expected
     */
    public function testByteByByte(string $stream, array $expected): void
    {
        $parser = new RespParser();
        $replies = [];
        foreach (str_split($stream) as $byte) {
            array_push($replies, ...$parser->push($byte));
        }
        self::assertEquals($expected, $replies);
        self::assertFalse($parser->isPartial());
    }

    /**
     * @dataProvider streams
     *
     * @param list<mixed> $expected
     */
    public function testRandomSplits(string $stream, array $expected): void
    {
        mt_srand(crc32($stream));
        for ($round = 0; $round < 50; ++$round) {
            $parser = new RespParser();
            $replies = [];
            $offset = 0;
            while ($offset < \strlen($stream)) {
                $take = mt_rand(1, max(1, \strlen($stream) - $offset));
                array_push($replies, ...$parser->push(substr($stream, $offset, $take)));
                $offset += $take;
            }
            self::assertEquals($expected, $replies);
        }
    }

    public function testNanDouble(): void
    {
        $value = (new RespParser())->push(",nan\r\n")[0];
        self::assertIsFloat($value);
        self::assertNan($value);
    }

    public function testLargeBulkInChunks(): void
    {
        $value = random_bytes(3 << 20);
        $stream = '$' . \strlen($value) . "\r\n" . $value . "\r\n:7\r\n";
        $parser = new RespParser();
        $replies = [];
        foreach (str_split($stream, 65536) as $chunk) {
            array_push($replies, ...$parser->push($chunk));
        }
        self::assertSame([$value, 7], $replies);
    }

    public function testLongArrayByteByByteIsLinear(): void
    {
        $items = array_map(static fn (int $i): string => 'item' . $i, range(1, 20000));
        $stream = RespEncoder::command($items);
        $parser = new RespParser();
        $replies = [];
        foreach (str_split($stream, 7) as $chunk) {
            array_push($replies, ...$parser->push($chunk));
        }
        self::assertSame([$items], $replies);
    }

    public function testAnnounced512MiBBulkIsRefusedAtOnce(): void
    {
        $parser = new RespParser();
        $before = memory_get_usage();
        try {
            $parser->push('$' . (512 << 20) . "\r\nabc");
            self::fail('no exception');
        } catch (ProtocolException $e) {
            self::assertStringContainsString('536870912-byte bulk reply', $e->getMessage());
            self::assertStringContainsString('max_bulk_length', $e->getMessage());
        }
        self::assertLessThan(1 << 20, memory_get_usage() - $before);
        $this->expectException(ProtocolException::class);
        $parser->push("+OK\r\n");
    }

    public function testConfiguredLimit(): void
    {
        $parser = new RespParser(maxBulkLength: 10);
        self::assertSame(['0123456789'], $parser->push("\$10\r\n0123456789\r\n"));
        $this->expectException(ProtocolException::class);
        $parser->push("\$11\r\n");
    }

    /** @return array<string, array{string}> */
    public static function malformed(): array
    {
        return [
            'unknown type' => ["?what\r\n"],
            'bad integer' => [":12a\r\n"],
            'integer with plus' => [":+1\r\n"],
            'integer overflow' => [":99999999999999999999\r\n"],
            'bad bulk length' => ["\$x\r\n"],
            'negative bulk length' => ["\$-2\r\n"],
            'bulk without CRLF' => ["\$3\r\nabcde\r\n"],
            'negative aggregate' => ["*-5\r\n"],
            'null set' => ["~-1\r\n"],
            'bad boolean' => ["#x\r\n"],
            'bad null' => ["_x\r\n"],
            'bad double' => [",1.2.3\r\n"],
            'bad big number' => ["(12x\r\n"],
            'bad verbatim' => ["=3\r\ntxt\r\n"],
            'too deep' => [str_repeat("*1\r\n", 300)],
            'line too long' => ['+' . str_repeat('a', (1 << 20) + 10)],
        ];
    }

    /** @dataProvider malformed */
    public function testMalformedInputRaisesProtocolException(string $stream): void
    {
        $this->expectException(ProtocolException::class);
        (new RespParser())->push($stream);
    }

    public function testGarbageOnlyRaisesProtocolException(): void
    {
        mt_srand(9);
        $alphabet = "+-:\$*%~>|_,#!=(\r\n0123456789-abc";
        for ($round = 0; $round < 3000; ++$round) {
            $parser = new RespParser(maxBulkLength: 1 << 16);
            $length = mt_rand(1, 64);
            $bytes = '';
            for ($i = 0; $i < $length; ++$i) {
                $bytes .= mt_rand(0, 3) === 0 ? \chr(mt_rand(0, 255)) : $alphabet[mt_rand(0, \strlen($alphabet) - 1)];
            }
            try {
                foreach (str_split($bytes, mt_rand(1, 8)) as $chunk) {
                    $parser->push($chunk);
                }
            } catch (ProtocolException) {
                // the only exception allowed
            }
        }
        $this->addToAssertionCount(1);
    }

    public function testEncoder(): void
    {
        self::assertSame("*3\r\n\$3\r\nSET\r\n\$1\r\nk\r\n\$3\r\n1.5\r\n", RespEncoder::command(['SET', 'k', 1.5]));
        self::assertSame("*2\r\n\$4\r\nINCR\r\n\$0\r\n\r\n", RespEncoder::command(['INCR', '']));
    }
}
