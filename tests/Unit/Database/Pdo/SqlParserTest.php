<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Pdo\Placeholder;
use Spindle\Database\Pdo\PlaceholderStyle;
use Spindle\Database\Pdo\SqlParser;

final class SqlParserTest extends TestCase
{
    /**
     * The placeholders as "offset:text", checking that each text is really at its offset.
     *
     * @return list<string>
     */
    private static function found(string $sql): array
    {
        return array_map(static function (Placeholder $p) use ($sql): string {
            self::assertSame($p->text, substr($sql, $p->offset, \strlen($p->text)));

            return $p->offset . ':' . $p->text;
        }, SqlParser::parse($sql)->placeholders);
    }

    public function testFindsPositionalAndNamedPlaceholders(): void
    {
        self::assertSame(['7:?', '22:?'], self::found('SELECT ? FROM t WHERE ?'));
        self::assertSame(['27:?'], self::found('SELECT * FROM t WHERE id = ?'));
        self::assertSame(['7::a', '15::b_2'], self::found('SELECT :a, x = :b_2'));
        self::assertSame(PlaceholderStyle::Positional, SqlParser::parse('SELECT ?')->style);
        self::assertSame(PlaceholderStyle::Named, SqlParser::parse('SELECT :a')->style);
        self::assertSame(PlaceholderStyle::Mixed, SqlParser::parse('SELECT :a, ?')->style);
        self::assertSame(PlaceholderStyle::None, SqlParser::parse('SELECT 1')->style);
    }

    public function testIgnoresPlaceholdersInStringsIdentifiersAndComments(): void
    {
        self::assertSame([], self::found("SELECT '?', \"?\", `?`, '\\'?', 'it''s ?', \"a\"\"?\""));
        self::assertSame([], self::found("SELECT 1 /* ? :x */ -- ?\n# :y ?"));
        self::assertSame(['24:?'], self::found("SELECT 1 -- comment ?\n, ?"));
        self::assertSame(['13:?'], self::found("SELECT 1 # ?\n?"));
        self::assertSame(['11:?'], self::found("SELECT `a?`?"));
        self::assertSame(['17::n'], self::found("SELECT ':n', `:n`:n"));
    }

    public function testDoubledMarkersTimeLiteralsAndCastsAreText(): void
    {
        self::assertSame([], self::found('SELECT a ?? b, x::int, y:::z'));
        self::assertSame([], self::found('SELECT a:b, 1:2'), 'a name right after a letter or digit is text');
        self::assertSame(['7::1'], self::found('SELECT :1'));
        self::assertSame(['9::b'], self::found('SELECT a(:b)'));
    }

    public function testUnterminatedQuotesAndCommentsAreNotOpenings(): void
    {
        self::assertSame(['8:?'], self::found("SELECT '?"));
        self::assertSame(['10:?'], self::found('SELECT /* ?'));
        self::assertSame(['8:?'], self::found('SELECT `?'));
        self::assertSame(['12:?'], self::found("SELECT 'a\\' ?"), 'a closing quote escaped by a backslash does not close');
    }

    public function testDoubledQuoteAtTheEndClosesTheLongestString(): void
    {
        // 'a'' is the string 'a' followed by an unterminated quote: the ? after it counts.
        self::assertSame(['12:?'], self::found("SELECT 'a'' ?"));
    }

    public function testRewritesNamedPlaceholdersToPositional(): void
    {
        [$sql, $names] = SqlParser::parse("SELECT :a, ':b', :c, :a")->toPositional();
        self::assertSame("SELECT ?, ':b', ?, ?", $sql);
        self::assertSame([0 => ':a', 1 => ':c', 2 => ':a'], $names);
    }
}
