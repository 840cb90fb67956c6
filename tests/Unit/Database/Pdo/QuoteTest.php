<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use Spindle\Tests\Unit\Database\FakeConnection;
use Spindle\Database\Pdo;

final class QuoteTest extends PdoTestCase
{
    public function testEscapesLikeMysqlRealEscapeString(): void
    {
        $pdo = $this->pdo();
        self::assertSame("'plain'", $pdo->quote('plain'));
        self::assertSame("''", $pdo->quote(''));
        self::assertSame("'it\\'s'", $pdo->quote("it's"));
        self::assertSame("'say \\\"hi\\\"'", $pdo->quote('say "hi"'));
        self::assertSame("'back\\\\slash'", $pdo->quote('back\\slash'));
        self::assertSame("'a\\0b\\nc\\rd\\Ze'", $pdo->quote("a\0b\nc\rd\x1Ae"));
        self::assertSame("'tab\tstays'", $pdo->quote("tab\tstays"));
        self::assertSame("'5'", $pdo->quote('5', \PDO::PARAM_INT), 'the type does not matter');
        self::assertSame([], $this->connection->queries, 'quoting needs no round trip');
    }

    public function testMultibyteTextIsCopiedWhole(): void
    {
        $pdo = $this->pdo();
        self::assertSame("'héllo wörld ✓ 😀 \\'x\\''", $pdo->quote("héllo wörld ✓ 😀 'x'"));
    }

    public function testBinaryStringsAreEscapedBytewise(): void
    {
        $pdo = $this->pdo();
        // \xC3 starts a two-byte UTF-8 character but is followed by a quote: in UTF-8, mysqlnd
        // copies such a lone lead byte as it is (it escapes them only in the Asian multibyte sets).
        self::assertSame("'\xC3\\'\xFF\x80\\0'", $pdo->quote("\xC3'\xFF\x80\0"));
        self::assertSame("'\x00\x01\x02'", str_replace('\\0', "\0", $pdo->quote("\0\x01\x02")));
    }

    public function testGbkTrailBytesAreNotEscaped(): void
    {
        $pdo = $this->pdo(dsn: 'mysql:host=db;charset=gbk');
        // 0xBF5C is one GBK character whose second byte is "\": it must not become 0xBF 0x5C 0x5C.
        self::assertSame("'\xBF\x5C'", $pdo->quote("\xBF\x5C"));
        self::assertSame("'\\\xBF\\''", $pdo->quote("\xBF'"), '0xBF followed by a quote is no character: the lead byte is escaped');

        $latin1 = $this->pdo(dsn: 'mysql:host=db;charset=latin1');
        self::assertSame("'\xBF\\\\'", $latin1->quote("\xBF\x5C"));
    }

    public function testNoBackslashEscapesModeDoublesQuotes(): void
    {
        $pdo = $this->pdo();
        $this->connection->status |= FakeConnection::NO_BACKSLASH_ESCAPES;
        self::assertSame("'it''s a \\ \"x\"'", $pdo->quote("it's a \\ \"x\""));
    }

    public function testNationalCharacterSetPrefix(): void
    {
        $pdo = $this->pdo();
        self::assertSame("N'x'", $pdo->quote('x', \PDO::PARAM_STR | \PDO::PARAM_STR_NATL));
        $pdo->setAttribute(\PDO::ATTR_DEFAULT_STR_PARAM, \PDO::PARAM_STR_NATL);
        self::assertSame("N'x'", $pdo->quote('x'));
        self::assertSame("'x'", $pdo->quote('x', \PDO::PARAM_STR | \PDO::PARAM_STR_CHAR));
        self::assertSame(\PDO::PARAM_STR_NATL, $pdo->getAttribute(\PDO::ATTR_DEFAULT_STR_PARAM));
    }

    public function testQuoteOfAnUnconstructedPdoFails(): void
    {
        $pdo = (new \ReflectionClass(Pdo::class))->newInstanceWithoutConstructor();
        $this->expectException(\Error::class);
        $this->expectExceptionMessage('PDO object is not initialized, constructor was not called');
        $pdo->quote('x');
    }
}
