<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Http2;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Http2\Hpack\HeaderListTooLarge;
use Spindle\Http\Http2\Hpack\HpackDecoder;
use Spindle\Http\Http2\Hpack\HpackEncoder;
use Spindle\Http\Http2\Hpack\HpackException;
use Spindle\Http\Http2\Hpack\Huffman;

/** HPACK against RFC 7541 Appendix C, byte for byte, and against bad and hostile blocks. */
final class HpackTest extends TestCase
{
    private const REQUESTS = [
        [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']],
        [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com'], ['cache-control', 'no-cache']],
        [[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']],
    ];
    private const RESPONSES = [
        [[':status', '302'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']],
        [[':status', '307'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']],
        [[':status', '200'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'], ['location', 'https://www.example.com'],
            ['content-encoding', 'gzip'], ['set-cookie', 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1']],
    ];

    /** @return iterable<string, array{list<list<array{string, string}>>, list<string>, list<int>, bool, int}> */
    public static function appendixC(): iterable
    {
        yield 'C.3 requests without Huffman' => [self::REQUESTS, [
            '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
            '8286 84be 5808 6e6f 2d63 6163 6865',
            '8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65',
        ], [57, 110, 164], false, 4096];
        yield 'C.4 requests with Huffman' => [self::REQUESTS, [
            '8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff',
            '8286 84be 5886 a8eb 1064 9cbf',
            '8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf',
        ], [57, 110, 164], true, 4096];
        yield 'C.5 responses without Huffman' => [self::RESPONSES, [
            '4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768'
            . '7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
            '4803 3330 37c1 c0bf',
            '88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153'
            . '444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31',
        ], [222, 222, 215], false, 256];
        yield 'C.6 responses with Huffman' => [self::RESPONSES, [
            '4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8'
            . 'e9ae 82ae 43d3',
            '4883 640e ffc1 c0bf',
            '88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b'
            . '3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07',
        ], [222, 222, 215], true, 256];
    }

    /**
     * @dataProvider appendixC
     * @param list<list<array{string, string}>> $lists
     * @param list<string> $hex
     * @param list<int> $sizes
     */
    public function testAppendixCByteForByte(array $lists, array $hex, array $sizes, bool $huffman, int $table): void
    {
        $encoder = new HpackEncoder($table, $table, [], [], $huffman);
        $decoder = new HpackDecoder($table);
        foreach ($lists as $i => $list) {
            $bytes = hex2bin(str_replace(' ', '', $hex[$i]));
            self::assertSame(bin2hex($bytes), bin2hex($encoder->encode($list)), "block $i encoded");
            self::assertSame($sizes[$i], $encoder->tableSize());
            self::assertSame($list, $decoder->decode($bytes), "block $i decoded");
            self::assertSame($sizes[$i], $decoder->tableSize());
        }
    }

    public function testAppendixC2SingleRepresentations(): void
    {
        $cases = [
            ['400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572', ['custom-key', 'custom-header'], 55],
            ['040c 2f73 616d 706c 652f 7061 7468', [':path', '/sample/path'], 0],
            ['1008 7061 7373 776f 7264 0673 6563 7265 74', ['password', 'secret'], 0],
            ['82', [':method', 'GET'], 0],
        ];
        foreach ($cases as [$hex, $field, $size]) {
            $bytes = hex2bin(str_replace(' ', '', $hex));
            $decoder = new HpackDecoder();
            self::assertSame([$field], $decoder->decode($bytes));
            self::assertSame($size, $decoder->tableSize());
            $encoder = new HpackEncoder(4096, 4096, ['password'], [':path'], false);
            self::assertSame(bin2hex($bytes), bin2hex($encoder->encode([$field])));
        }
    }

    public function testAppendixC1Integers(): void
    {
        self::assertSame('0a', bin2hex(HpackEncoder::integer(10, 5, 0)));
        self::assertSame('1f9a0a', bin2hex(HpackEncoder::integer(1337, 5, 0)));
        self::assertSame('2a', bin2hex(HpackEncoder::integer(42, 8, 0)));
    }

    public function testHuffmanRoundTripsRandomBytes(): void
    {
        mt_srand(7);
        for ($i = 0; $i < 500; $i++) {
            $s = '';
            for ($j = mt_rand(0, 60); $j > 0; $j--) {
                $s .= \chr(mt_rand(0, 255));
            }
            $coded = Huffman::encode($s);
            self::assertSame(\strlen($coded), Huffman::encodedLength($s));
            self::assertSame($s, Huffman::decode($coded));
        }
    }

    public function testHuffmanRejectsBadPadding(): void
    {
        // 'a' is 00011 (5 bits): padded with zeros instead of ones.
        $this->expectException(HpackException::class);
        Huffman::decode("\x18");
    }

    public function testHuffmanRejectsPaddingOfAWholeByte(): void
    {
        $this->expectException(HpackException::class);
        Huffman::decode(Huffman::encode('abc') . "\xff");
    }

    public function testHuffmanRejectsEos(): void
    {
        $this->expectException(HpackException::class);
        Huffman::decode("\xff\xff\xff\xff");
    }

    /** @return iterable<string, array{string}> */
    public static function malformed(): iterable
    {
        yield 'index 0' => ['80'];
        yield 'index past the tables' => ['be'];
        yield 'integer without end' => ['ff ff ff'];
        yield 'integer overflow' => ['ff ff ff ff ff ff ff 7f'];
        yield 'string past the block' => ['40 05 61 62'];
        yield 'name missing' => ['40'];
        yield 'value missing' => ['41'];
        yield 'size update above the setting' => ['3f e2 1f'];
        yield 'size update after a field' => ['82 20'];
        yield 'bad Huffman' => ['41 81 ff'];
    }

    /** @dataProvider malformed */
    public function testMalformedBlocksAreCompressionErrors(string $hex): void
    {
        $this->expectException(HpackException::class);
        (new HpackDecoder())->decode(hex2bin(str_replace(' ', '', $hex)));
    }

    public function testSizeUpdateEvictsAndIsAnnouncedByTheEncoder(): void
    {
        $encoder = new HpackEncoder(4096, 4096, [], []);
        $decoder = new HpackDecoder(4096);
        $decoder->decode($encoder->encode([['x-a', str_repeat('a', 100)]]));
        self::assertSame(135, $decoder->tableSize());
        $encoder->setPeerTableSize(0);
        $encoder->setPeerTableSize(100);
        $block = $encoder->encode([['x-a', str_repeat('a', 100)]]);
        self::assertSame("\x20\x3f\x45", substr($block, 0, 3), 'two updates: the minimum, then the final size');
        self::assertSame([['x-a', str_repeat('a', 100)]], $decoder->decode($block));
        self::assertSame(0, $decoder->tableSize(), 'an entry larger than the table is not added');
    }

    public function testRandomHeaderSetsRoundTrip(): void
    {
        mt_srand(11);
        $encoder = new HpackEncoder(1024, 1024);
        $decoder = new HpackDecoder(1024);
        $names = ['content-type', 'x-trace', 'set-cookie', 'cache-control', 'vary', 'x-custom-' . mt_rand(), ':status', 'date'];
        for ($i = 0; $i < 300; $i++) {
            $list = [];
            for ($j = mt_rand(1, 12); $j > 0; $j--) {
                $list[] = [$names[mt_rand(0, \count($names) - 1)], str_repeat(\chr(mt_rand(32, 126)), mt_rand(0, 80))];
            }
            self::assertSame($list, $decoder->decode($encoder->encode($list)));
            self::assertSame($encoder->tableSize(), $decoder->tableSize());
            self::assertLessThanOrEqual(1024, $decoder->tableSize());
        }
    }

    public function testHpackBombIsStoppedByTheListBoundWhileDecoding(): void
    {
        // One 4 KiB entry, then 16,000 one-byte references to it: 64 MB of headers from 16 KB.
        $decoder = new HpackDecoder(4096, 65536);
        $block = "\x40\x01x\x7f\xa1\x1e" . str_repeat('v', 4000) . str_repeat("\xbe", 16000);
        $before = memory_get_usage();
        try {
            $decoder->decode($block);
            self::fail('The bomb decoded');
        } catch (HeaderListTooLarge $e) {
            self::assertSame(65536, $e->limit);
        }
        self::assertLessThan(1 << 20, memory_get_usage() - $before);
        // The table stayed in step: the next block still sees the entry.
        self::assertSame([['x', str_repeat('v', 4000)]], $decoder->decode("\xbe"));
    }
}
