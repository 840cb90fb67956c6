<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pgsql;

use PHPUnit\Framework\TestCase;
use Spindle\Database\Pdo\Dialect;
use Spindle\Database\Pdo\Handle;
use Spindle\Database\Pdo\PgsqlConnect;
use Spindle\Database\Pdo\PgsqlPlaceholders;
use Spindle\Database\Pdo\PlaceholderStyle;
use Spindle\Database\Pdo\SqlParser;
use Spindle\Database\Pgsql\SslMode;

/** The PostgreSQL parts of the PDO layer that need no server: placeholders, quoting, the DSN. */
final class PdoPartsTest extends TestCase
{
    public function testPlaceholdersInThePostgresDialect(): void
    {
        $parsed = SqlParser::parse("SELECT a::int, b #> '{x}', `c`, ? FROM t WHERE j ?? 'k' AND x = :x -- ? :y\n", Dialect::Pgsql);
        self::assertSame(PlaceholderStyle::Mixed, $parsed->style);
        self::assertSame(['?', ':x'], array_map(static fn ($p) => $p->text, $parsed->placeholders));
        self::assertSame([strpos($parsed->sql, '??')], $parsed->escapedQuestionMarks);
        // MySQL reads "#" as a comment and backticks as quotes.
        self::assertSame([], SqlParser::parse('SELECT 1 # ?', Dialect::Mysql)->placeholders);
        self::assertCount(1, SqlParser::parse('SELECT 1 # ?', Dialect::Pgsql)->placeholders);
    }

    public function testNumbering(): void
    {
        self::assertSame(["SELECT \$1, '?', \$2 WHERE j ? 'a' AND k ?| \$3", 3], PgsqlPlaceholders::number("SELECT ?, '?', ? WHERE j ?? 'a' AND k ??| ?"));
        self::assertSame('SELECT j ? $1', PgsqlPlaceholders::unescapeQuestionMarks('SELECT j ?? $1'));
        self::assertSame("SELECT '??'", PgsqlPlaceholders::unescapeQuestionMarks("SELECT '??'"));
    }

    public function testQuoting(): void
    {
        self::assertSame("'a''b\\c'", Handle::quotePgsql("a'b\\c"));
        self::assertSame("'x'", Handle::quotePgsql("x\0y"));
        self::assertSame("E'a\\\\b'", Handle::quotePgsql('a\\b', true));
        self::assertSame("''", Handle::quotePgsql(''));
    }

    public function testDsn(): void
    {
        self::assertSame(
            ['host' => 'db', 'port' => '5433', 'dbname' => 'app', 'application_name' => 'my app', 'options' => "-c search_path='s'"],
            PgsqlConnect::parse("host=db port=5433  dbname = app application_name='my app' options='-c search_path=\\'s\\''"),
        );
        $config = PgsqlConnect::config('host=db;port=5433;dbname=app;sslmode=require;user=dsnuser;password=dsnpass', null, null, []);
        self::assertSame(['db', 5433, 'app', 'dsnuser', 'dsnpass', SslMode::Require, 30.0], [$config->host, $config->port, $config->database, $config->user, $config->password, $config->sslMode, $config->connectTimeout]);
        $config = PgsqlConnect::config('dbname=app;user=dsnuser', 'ctor', 'secret', [\PDO::ATTR_TIMEOUT => 3]);
        self::assertSame([PgsqlConnect::DEFAULT_SOCKET_DIR, 'ctor', 'secret', 3.0], [$config->host, $config->user, $config->password, $config->connectTimeout]);
        self::assertTrue($config->isUnixSocket());
        // An empty user, from the constructor (DBAL's '' when a URL names none) or the DSN, is the
        // OS user's name as libpq takes it; the constructor's still wins over the DSN's.
        $osUser = posix_getpwuid(posix_geteuid())['name'] ?? null;
        self::assertIsString($osUser);
        self::assertSame($osUser, PgsqlConnect::config('dbname=app;user=dsnuser', '', null, [])->user);
        self::assertSame($osUser, PgsqlConnect::config('dbname=app;user=', null, null, [])->user);
        $this->expectException(\InvalidArgumentException::class);
        PgsqlConnect::config('host=db;sslmode=sometimes', null, null, []);
    }
}
