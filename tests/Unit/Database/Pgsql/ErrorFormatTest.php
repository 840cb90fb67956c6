<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pgsql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Pgsql\ErrorFormat;
use Spindle\Database\Pgsql\Protocol\ServerMessage;

final class ErrorFormatTest extends TestCase
{
    private static function error(int $position, array $more = []): ServerMessage
    {
        return new ServerMessage(true, ['S' => 'ERROR', 'C' => '42703', 'M' => 'column "nope" does not exist', 'P' => (string) $position] + $more);
    }

    public function testCaretUnderThePosition(): void
    {
        self::assertSame(
            "ERROR:  column \"nope\" does not exist\nLINE 1: SELECT nope\n               ^",
            ErrorFormat::format(self::error(8), 'SELECT nope'),
        );
    }

    public function testLaterLinesCRLFAndTabs(): void
    {
        self::assertSame(
            "ERROR:  column \"nope\" does not exist\nLINE 3:  nope FROM t\n         ^",
            ErrorFormat::format(self::error(14), "SELECT\r\n a,\n\tnope FROM t"),
        );
    }

    public function testLongLinesAreCutAroundThePosition(): void
    {
        // As libpq shows it (compared with native pdo_pgsql in the differential suite too).
        $sql = 'SELECT id, name, grp, score, note, active, id AS a, name AS b, grp AS c, score AS d, nope FROM people';
        self::assertSame(
            "ERROR:  column \"nope\" does not exist\nLINE 1: ...active, id AS a, name AS b, grp AS c, score AS d, nope FROM ...\n"
            . str_repeat(' ', 61) . '^',
            ErrorFormat::format(self::error(strpos($sql, 'nope') + 1), $sql),
        );
        $start = 'SELECT nope, ' . str_repeat('x, ', 30) . '1';
        self::assertSame(
            "ERROR:  column \"nope\" does not exist\nLINE 1: " . substr($start, 0, 60) . "...\n" . str_repeat(' ', 15) . '^',
            ErrorFormat::format(self::error(8), $start),
        );
    }

    public function testDetailHintContextAndNoQuery(): void
    {
        $error = self::error(8, ['D' => 'the detail', 'H' => 'the hint', 'W' => 'PL/pgSQL function f() line 1']);
        self::assertSame(
            "ERROR:  column \"nope\" does not exist\nDETAIL:  the detail\nHINT:  the hint\nCONTEXT:  PL/pgSQL function f() line 1",
            ErrorFormat::format($error),
        );
        self::assertSame("ERROR:  column \"nope\" does not exist", ErrorFormat::format(self::error(99), 'SELECT 1'));
    }

    public function testMultibyteCharactersCountAsCharacters(): void
    {
        self::assertSame(
            "ERROR:  column \"nope\" does not exist\nLINE 1: SELECT 'ü', nope\n                    ^",
            ErrorFormat::format(self::error(13), "SELECT 'ü', nope"),
        );
    }
}
