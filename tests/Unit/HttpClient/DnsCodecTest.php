<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\HttpClient;

use PHPUnit\Framework\TestCase;
use Random\Engine\Mt19937;
use Random\Randomizer;
use Spindle\HttpClient\Dns\DnsCodec;
use Spindle\HttpClient\Dns\DnsException;

final class DnsCodecTest extends TestCase
{
    /** An answer to $query: a CNAME api.test → real.test (compressed names), then real.test's A records. */
    public static function answer(string $query, int $ttl = 300, int $rcode = 0): string
    {
        $id = \substr($query, 0, 2);
        $question = \substr($query, 12);
        $cname = "\xc0\x0c" . \pack('nnNn', 5, 1, 600, 7) . "\x04real\xc0\x10";
        // "real" + pointer to "test" (offset 16 = 12 + 1 + 3 for "\x03api").
        $a1 = "\xc0" . \chr(12 + \strlen($question) + 12) . \pack('nnNn', 1, 1, $ttl, 4) . \inet_pton('192.0.2.7');
        $a2 = "\xc0" . \chr(12 + \strlen($question) + 12) . \pack('nnNn', 1, 1, $ttl + 5, 4) . \inet_pton('192.0.2.8');

        return $id . \pack('nnnnn', 0x8180 | $rcode, 1, $rcode === 0 ? 3 : 0, 0, 0) . $question . ($rcode === 0 ? $cname . $a1 . $a2 : '');
    }

    public function testQueryAndAnswerWithCompressionAndCname(): void
    {
        $codec = new DnsCodec();
        $query = $codec->query(0x1234, 'api.test', DnsCodec::A);
        self::assertSame("\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x03api\x04test\x00\x00\x01\x00\x01", $query);
        $answer = $codec->answer(self::answer($query), 0x1234, 'api.test', DnsCodec::A);
        self::assertSame(['192.0.2.7', '192.0.2.8'], $answer['addresses']);
        self::assertSame(300, $answer['ttl']);
        self::assertFalse($answer['truncated']);
    }

    public function testNxdomainAndAnotherId(): void
    {
        $codec = new DnsCodec();
        $query = $codec->query(7, 'missing.test', DnsCodec::A);
        self::assertSame(3, $codec->answer(self::answer($query, rcode: 3), 7, 'missing.test', DnsCodec::A)['rcode']);
        $this->expectException(DnsException::class);
        $codec->answer(self::answer($query), 8, 'missing.test', DnsCodec::A);
    }

    public function testGarbageOnlyRaisesDnsException(): void
    {
        $codec = new DnsCodec();
        $valid = self::answer($codec->query(1, 'api.test', DnsCodec::A));
        // Seeds 0 to 2999, one an answer, named on failure.
        for ($seed = 0; $seed < 3000; ++$seed) {
            $random = new Randomizer(new Mt19937($seed));
            $bytes = match ($seed % 3) {
                0 => $random->getBytes($random->getInt(1, 300)),
                1 => \substr($valid, 0, $random->getInt(0, \strlen($valid) - 1)),
                default => \substr_replace($valid, $random->getBytes(2), $random->getInt(12, \strlen($valid) - 2), 2),
            };
            try {
                $codec->answer("\x00\x01" . \substr($bytes, 2), 1, 'api.test', DnsCodec::A);
            } catch (DnsException) {
            } catch (\Throwable $e) {
                self::fail(\sprintf('seed %d: %s: %s', $seed, $e::class, $e->getMessage()));
            }
        }
        $this->expectException(DnsException::class);
        $codec->query(1, 'bad..name', DnsCodec::A);
    }
}
