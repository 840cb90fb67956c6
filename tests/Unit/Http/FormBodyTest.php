<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Spindle\Http\FormBody;
use Spindle\Http\HttpException;

final class FormBodyTest extends TestCase
{
    public function testUrlEncodedMatchesParseStr(): void
    {
        foreach ([
            '', '&', '&&&', '=', '=x', 'a', 'a=', 'a=b=c', '%61=1', 'a+b=c+d', 'a%20b=%zz%2', 'a=%00b',
            'a=1&&b=2', 'a[]=1&a[]=2', 'a=1&a=2', 'a[x]=1&a=2', 'a=1&a[x]=2', 'x=%E2%82%AC&y=%e2%82%ac',
            'a%5Bb%5D=1', 'a[b%5D=1', 'a%00b=1', '%20%20a=1', 'a.b.c=1&a b c=2', 'a=1;b=2', 'a=%', 'a=%%25',
            'user[name]=Zo%C3%AB&user[roles][]=admin&user[roles][]=dev&user[address][city]=Paris',
        ] as $body) {
            \parse_str($body, $expected);
            self::assertSame($expected, FormBody::parseUrlEncoded($body), 'body: ' . \json_encode($body));
        }
    }

    public function testMaxVarsCountsNonEmptyPairs(): void
    {
        self::assertSame(['a' => '', 'b' => '', 'c' => ''], FormBody::parseUrlEncoded('a&&&b&&c&', 3));

        $thousand = \implode('&', \array_map(static fn (int $i): string => "v$i=$i", \range(1, 1000)));
        self::assertCount(1000, FormBody::parseUrlEncoded($thousand));

        try {
            FormBody::parseUrlEncoded($thousand . '&one=more');
            self::fail('Expected HttpException');
        } catch (HttpException $e) {
            self::assertSame(413, $e->status);
        }

        $this->expectException(HttpException::class);
        FormBody::parseUrlEncoded('a&b&c&d', 3);
    }

    public function testVariablesWithDroppedNamesStillCount(): void
    {
        $this->expectException(HttpException::class);
        FormBody::parseUrlEncoded('=1&=2&a=3', 2);
    }

    public function testCookies(): void
    {
        $cases = [
            'a=1; b=2' => ['a' => '1', 'b' => '2'],
            'a=1; a=2' => ['a' => '1'],
            'a=hello%20world+x%2B' => ['a' => 'hello world+x+'],
            '  a=1 ;b=2 ;  c = 3 ' => ['a' => '1', 'b' => '2', 'c_' => ' 3'],
            '=x; y; ;;z=' => ['y' => '', 'z' => ''],
            ';;' => [],
            '' => [],
            'a[b]=1; a[c]=2; a[b]=3' => ['a' => ['b' => '1', 'c' => '2']],
            'a=1; a[b]=2' => ['a' => ['b' => '2']],
            'a.b=1; a b=2' => ['a_b' => '1'],
            'a%20b=1' => ['a%20b' => '1'],
            'x=%E2%82%AC; y=%zz; z="quoted"' => ['x' => '€', 'y' => '%zz', 'z' => '"quoted"'],
            'list[]=1; list[]=2' => ['list' => ['1', '2']],
            "tab\t=1;\tt2=2" => ["tab\t" => '1', 't2' => '2'],
            'session=abc=def' => ['session' => 'abc=def'],
        ];
        foreach ($cases as $header => $expected) {
            self::assertSame($expected, FormBody::parseCookies((string) $header), 'header: ' . \json_encode($header));
        }
    }
}
