<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Spindle\Http\FormBody;
use Spindle\Http\FormNames;

final class FormNamesTest extends TestCase
{
    /** @return list<string> */
    private static function trickyNames(): array
    {
        return [
            'a', 'a b', 'a.b', ' a', '  a.b c', 'a ', 'a[', 'a]', 'a[b', 'a[b]', 'a[b]c', 'a[b][c', 'a[b.c',
            'a[b c', 'a[b[c', 'a[ b]', 'a[ ]', 'a[  ]', 'a[]', 'a[][]', 'a[][b]', 'a[b][]', 'a[[b]]', 'a[b[c]]',
            'a][b', 'a]b[c]', '[a]', '[]', '', '.', ' ', '_', 'a[0]', 'a[01]', 'a[-1]', 'a[-0]', 'a[1.5]',
            'a[9223372036854775807]', 'a[9223372036854775808]', "a\0b", "a[b\0c]", "\0a", 'a.b[c.d]',
            'a b[c d]', 'a[b]]', 'a[]]', 'a[b][c][d][e]', 'a_b', '123', '-5', '1.5', 'a[b][c]d[e]',
            'a[x][ ]', 'a[x][ y]', "a\tb", "a\x80.b", 'a+b', 'a[b]x[c]', 'a.[b]', 'a [b]', '[', ']',
            'a[]b', 'a[][', 'a[x][', 'a[x]]', 'this', 'GLOBALS', '_GET[x]',
        ];
    }

    private static function assertSameAsParseStr(string $query, string $message = ''): void
    {
        \parse_str($query, $expected);
        self::assertSame($expected, FormBody::parseUrlEncoded($query), $message . ' query: ' . \json_encode($query));
    }

    public function testEachTrickyNameMatchesParseStr(): void
    {
        foreach (self::trickyNames() as $name) {
            self::assertSameAsParseStr(\rawurlencode($name) . '=v');
            self::assertSameAsParseStr(\rawurlencode($name));
        }
    }

    public function testAllTrickyNamesTogetherMatchParseStr(): void
    {
        $names = self::trickyNames();
        $pairs = [];
        foreach ($names as $i => $name) {
            $pairs[] = \rawurlencode($name) . '=' . $i;
        }
        self::assertSameAsParseStr(\implode('&', $pairs));
        self::assertSameAsParseStr(\implode('&', \array_reverse($pairs)));
    }

    public function testCollisionsBetweenScalarsAndArraysMatchParseStr(): void
    {
        foreach ([
            'a=1&a[b]=2', 'a[b]=1&a=2', 'a[]=1&a[]=2&a[5]=3&a[]=4', 'a[b]=1&a[b][c]=2', 'a[b][c]=1&a[b]=2',
            'a[1]=x&a[]=y', 'a[-3]=x&a[]=y', 'a[9223372036854775807]=1&a[]=2&a[]=3',
            'b[9223372036854775807][]=1&b[][x]=2&b[]=3', 'a[x][]=1&a[x][]=2&a[y][z][]=3',
        ] as $query) {
            self::assertSameAsParseStr($query);
        }
    }

    public function testNestingDepthLimitMatchesParseStr(): void
    {
        foreach ([63, 64, 65, 100] as $depth) {
            $queries = [
                'a=1&b=2&a' . \str_repeat('[x]', $depth) . '=v&a[]=3',
                'a=1&a' . \str_repeat('[x]', $depth) . '[y=v',
                'a' . \str_repeat('[]', $depth) . '=v',
            ];
            foreach ($queries as $query) {
                // parse_str warns when the nesting level is exceeded; FormNames drops silently.
                @\parse_str($query, $expected);
                self::assertSame($expected, FormBody::parseUrlEncoded($query), "depth $depth: $query");
            }
        }
    }

    public function testRandomNamesMatchParseStr(): void
    {
        $seed = 20240611;
        \mt_srand($seed);
        $alphabet = ['a', 'b', '[', ']', ' ', '.', '0', '1', '-', '_', "\0", '+', "\x80"];
        for ($i = 0; $i < 3000; ++$i) {
            $pairs = [];
            $count = \mt_rand(1, 4);
            for ($j = 0; $j < $count; ++$j) {
                $name = '';
                $length = \mt_rand(0, 10);
                for ($k = 0; $k < $length; ++$k) {
                    $name .= $alphabet[\mt_rand(0, \count($alphabet) - 1)];
                }
                $pairs[] = \rawurlencode($name) . '=' . $j;
            }
            self::assertSameAsParseStr(\implode('&', $pairs), "seed $seed, iteration $i");
        }
    }

    public function testAssignKeepsObjectsAndNestsLikeFormFields(): void
    {
        $target = [];
        $one = new \stdClass();
        $two = new \stdClass();
        FormNames::assign($target, 'files[]', $one);
        FormNames::assign($target, 'files[]', $two);
        FormNames::assign($target, 'doc[a][b]', $one);
        FormNames::assign($target, 'plain', $two);
        self::assertSame(['files' => [$one, $two], 'doc' => ['a' => ['b' => $one]], 'plain' => $two], $target);
    }

    public function testKeepExistingLeavesFirstValue(): void
    {
        $target = [];
        FormNames::assign($target, 'a', '1', keepExisting: true);
        FormNames::assign($target, 'a', '2', keepExisting: true);
        FormNames::assign($target, 'b[x]', '1', keepExisting: true);
        FormNames::assign($target, 'b[x]', '2', keepExisting: true);
        FormNames::assign($target, 'b[]', '3', keepExisting: true);
        self::assertSame(['a' => '1', 'b' => ['x' => '1', 0 => '3']], $target);
    }

    public function testParseExposesTheSplitName(): void
    {
        self::assertSame(['a_b', ['c', null, ' d']], FormNames::parse(' a.b[c][ ][ d]'));
        self::assertSame(['a_b_c', []], FormNames::parse('a[b.c'));
        self::assertNull(FormNames::parse('[x]'));
        self::assertSame(['a', false], FormNames::parse('a' . \str_repeat('[]', 65)));
        self::assertSame(['a', ['x']], FormNames::parse('a[x]', 1));
        self::assertSame(['a', false], FormNames::parse('a[x][y]', 1));
    }
}
