<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Redis;

use PHPUnit\Framework\TestCase;
use Spindle\Redis\PhpRedis\Codec;
use Spindle\Redis\PhpRedis\Lz4;
use Spindle\Redis\PhpRedis\Lzf;
use Spindle\Redis\PhpRedis\Zstd;

/**
 * The LZF, LZ4 and Zstandard codecs of the phpredis facade: round trips over data of every shape (the
 * bytes phpredis itself reads are checked against phpredis in tests/Integration/Redis), known
 * encodings, and garbage — random bytes, truncated and corrupted streams — read as "not
 * compressed" (null) without a warning or an error.
 */
final class CompressionTest extends TestCase
{
    /** @return array<string, array{string}> */
    public static function samples(): array
    {
        mt_srand(40);
        $random = static fn (int $n): string => implode('', array_map(static fn (): string => \chr(mt_rand(0, 255)), range(1, $n)));

        return [
            'one byte' => ['a'],
            'short' => ['hello hello hello hello'],
            'runs' => [str_repeat('x', 100)],
            'overlapping match' => ['ab' . str_repeat('abababab', 50) . 'c'],
            'long repeat' => [str_repeat('abc', 30000)],
            'text' => [str_repeat('Lorem ipsum dolor sit amet, consectetur adipiscing elit. ', 300)],
            'random' => [$random(5000)],
            'random then repeats' => [$random(20) . str_repeat('q', 70000) . $random(30)],
            'match beyond 64 KiB back' => [($block = $random(300)) . $random(70000) . $block],
            'zeros' => [str_repeat("\0", 4096)],
            'exactly 12' => ['123456789012'],
            'thirteen' => ['1234567890123'],
        ];
    }

    /** @dataProvider samples */
    public function testRoundTrips(string $data): void
    {
        self::assertSame($data, Lzf::decompress(Lzf::compress($data)), 'LZF');
        self::assertSame($data, Lz4::decompress(Lz4::compress($data)), 'LZ4');
        self::assertSame($data, Zstd::decompress(Zstd::compress($data)), 'ZSTD');
        if (\strlen($data) > 200 && str_contains($data, 'Lorem')) {
            self::assertLessThan(\strlen($data) / 10, \strlen(Lzf::compress($data)));
            self::assertLessThan(\strlen($data) / 10, \strlen(Lz4::compress($data)));
            self::assertLessThan(\strlen($data) / 10, \strlen(Zstd::compress($data)));
        }
    }

    public function testKnownEncodings(): void
    {
        // LZF: a literal run; LZ4 with phpredis's header (CRC-8 of the length, the length).
        self::assertSame('0061', bin2hex(Lzf::compress('a')));
        self::assertSame('ab', Lzf::decompress("\x01ab"));
        self::assertSame('4c010000001061', bin2hex(Lz4::compress('a')));
        self::assertSame('7d170000006868656c6c6f2006005068656c6c6f', bin2hex(Lz4::compress('hello hello hello hello')));
        self::assertSame('hello hello hello hello', Lz4::decompress((string) hex2bin('7d170000006868656c6c6f2006005068656c6c6f')));
    }

    /**
     * A frame phpredis 5.3.7 wrote (libzstd, level 19): Huffman-coded literals and FSE-coded
     * sequence tables, which Spindle's compressor does not write.
     */
    public function testReadsAFrameOfLibzstd(): void
    {
        $expected = '';
        for ($i = 0; $i < 60; ++$i) {
            $expected .= '{"id":' . $i . ',"name":"user ' . ($i * 7 % 13) . '","ok":' . ($i % 3 !== 0 ? 'true' : 'false') . "}\n";
        }
        $frame = (string) hex2bin('28b52ffd608707750700a24a1c16902d74925fa21c34cbcc167fcbbd534ad240e9fb1b80e777f3f2dfefed7cfdf86c5cdcdbae992ed3e9d5b4f4768badf5b056bdc33363aa949bd12f69b6b21e9e337385a4ab2c244ff2f88aa6e5dc7ca5451c1043c0c4f050100e034a3448401570181e111a9061416090a0065440902460a82198ddfe77302d8a9a031250200820088c4a0964c4f08930f201abc0d1ae590c76815c59d4a17ad892ba353e1675286f9b63e8d67a14f19663ca6987745650c1f5787423bbf47183b0c786e1b6710f51a35d7ad8be6dcb7a6f8e3fd4f6ff22372a68bb17a51e6c414af19b6945499f9c6962a594f0006215');
        self::assertSame($expected, Zstd::decompress($frame));
        self::assertNull(Zstd::decompress(substr($frame, 0, -1)));
        // two frames and a skippable one in between read as one
        self::assertSame($expected . 'abc', Zstd::decompress($frame . "\x50\x2a\x4d\x18\x02\x00\x00\x00xy" . Zstd::compress('abc')));
    }

    public function testGarbageIsNotCompressedData(): void
    {
        set_error_handler(static function (int $type, string $message): never {
            throw new \ErrorException($message, 0, $type);
        });
        try {
            foreach (['', 'zzz', "\0", "\x02ab", 'not-actually-lzf-compressed', "\xe0\xff\xff"] as $bad) {
                self::assertNull(Lzf::decompress($bad), bin2hex($bad));
            }
            foreach (['', 'zzz', '123', 'not lz4 at all', "\x4c\x01\x00\x00\x00"] as $bad) {
                self::assertNull(Lz4::decompress($bad), bin2hex($bad));
                self::assertNull(Zstd::decompress($bad), bin2hex($bad));
            }
            mt_srand(7);
            $valid = [Lzf::compress(str_repeat('Lorem ipsum dolor sit amet ', 50)), Lz4::compress(str_repeat('Lorem ipsum dolor sit amet ', 50)), Zstd::compress(str_repeat('Lorem ipsum dolor sit amet ', 50))];
            for ($round = 0; $round < 3000; ++$round) {
                $garbage = implode('', array_map(static fn (): string => \chr(mt_rand(0, 255)), range(0, mt_rand(0, 40))));
                $result = Lzf::decompress($garbage);
                self::assertTrue($result === null || \is_string($result));
                $result = Lz4::decompress($garbage);
                self::assertTrue($result === null || \is_string($result));
                // truncated and corrupted streams
                $lzf = substr($valid[0], 0, mt_rand(0, \strlen($valid[0]) - 1));
                $lz4 = $valid[1];
                $lz4[mt_rand(5, \strlen($lz4) - 1)] = \chr(mt_rand(0, 255));
                $result = Lzf::decompress($lzf);
                self::assertTrue($result === null || \is_string($result));
                $result = Lz4::decompress($lz4);
                self::assertTrue($result === null || \strlen($result) === 27 * 50);
                self::assertNull(Lz4::decompress(substr($valid[1], 0, mt_rand(0, \strlen($valid[1]) - 1))));
                self::assertNull(Zstd::decompress(substr($valid[2], 0, mt_rand(0, \strlen($valid[2]) - 1))));
                $zstd = $valid[2];
                $zstd[mt_rand(4, \strlen($zstd) - 1)] = \chr(mt_rand(0, 255));
                $result = Zstd::decompress($zstd);
                self::assertTrue($result === null || \is_string($result));
                $result = Zstd::decompress("\x28\xb5\x2f\xfd" . $garbage);
                self::assertTrue($result === null || \is_string($result));
            }
        } finally {
            restore_error_handler();
        }
    }

    public function testCodecReadsWhatIsNotInItsFormatAsItIs(): void
    {
        $codec = new Codec();
        $codec->serializer = Codec::SERIALIZER_PHP;
        $codec->compression = Codec::COMPRESSION_LZ4;
        self::assertSame(['a' => [1, 2.5, true, null]], $codec->unpack($codec->pack(['a' => [1, 2.5, true, null]])));
        self::assertSame('17', $codec->unpack('17'));             // a counter INCR wrote
        self::assertFalse($codec->unpack($codec->pack(false)));
        $codec->serializer = Codec::SERIALIZER_JSON;
        $codec->compression = Codec::COMPRESSION_LZF;
        self::assertSame(17, $codec->unpack('17'));               // valid JSON: read as JSON, as phpredis
        self::assertSame('plain text', $codec->unpack('plain text'));
        self::assertSame('{"tag":"\u003Cb\u003E"}', $codec->serialize(['tag' => '<b>']));
        $this->expectException(\RedisException::class);
        $this->expectExceptionMessage('Invalid serialized data, or unserialization error');
        $codec->unserialize('plain text', true);
    }
}
