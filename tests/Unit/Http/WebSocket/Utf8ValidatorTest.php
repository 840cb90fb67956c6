<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\WebSocket;

use PHPUnit\Framework\TestCase;
use Spindle\Http\WebSocket\Utf8Validator;

/** Utf8Validator against PCRE's whole-string check, on every split of many strings. */
final class Utf8ValidatorTest extends TestCase
{
    private const SEED = 3629;

    public function testEveryPrefixIsJudgedAsSoonAsItCanBe(): void
    {
        // Where a stream must fail: at the first byte after which no continuation can make it valid.
        foreach ([
            ["\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80edited", 12],
            ["\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xf4\x90\x80\x80edited", 12],
            ["ab\xc0\xaf", 2],
            ["ab\xe0\x80\xaf", 3],
            ["\xf0\x8f\xbf\xbf", 1],
            ["a\xf5", 1],
            ["\xff", 0],
            ["abc\x80", 3],
            ["\xe2\x82\xac\xe2\x82a", 5],
        ] as [$input, $failsAt]) {
            $validator = new Utf8Validator();
            for ($i = 0; $i < \strlen($input); ++$i) {
                $ok = $validator->push($input[$i]);
                self::assertSame($i < $failsAt, $ok, \sprintf('%s at byte %d', \bin2hex($input), $i));
                if (!$ok) {
                    break;
                }
            }
        }
    }

    public function testAgreesWithAWholeStringCheckHoweverTheStringIsCut(): void
    {
        \mt_srand(self::SEED);
        $alphabet = ['a', "\x00", "\x7f", "\xc2\xa2", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xed\xa0\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\x80", "\xc0\x80", "\xc1", "\xf5", "\xff", "\xe2", "\xf0\x9f"];
        for ($round = 0; $round < 2000; ++$round) {
            $input = '';
            for ($i = \mt_rand(0, 8); $i > 0; --$i) {
                $input .= $alphabet[\mt_rand(0, \count($alphabet) - 1)];
            }
            $expected = \preg_match('//u', $input) === 1;
            $validator = new Utf8Validator();
            $ok = true;
            for ($offset = 0; $offset < \strlen($input) && $ok;) {
                $length = \mt_rand(1, 4);
                $ok = $validator->push(\substr($input, $offset, $length));
                $offset += $length;
            }
            $verdict = $ok && $validator->isComplete();
            self::assertSame($expected, $verdict, \sprintf('seed %d round %d: %s', self::SEED, $round, \bin2hex($input)));
        }
    }
}
