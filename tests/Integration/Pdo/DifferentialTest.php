<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

use Spindle\Database\Pdo;

/**
 * The same operations through native pdo_mysql (mysqlnd) and through Spindle\Database\Pdo,
 * compared with assertSame, types included: return values, exceptions (class, message, code,
 * errorInfo, file and line), warnings and deprecations (error_reporting is E_ALL).
 *
 * Normalisations, each because it must:
 * - statements are compared by queryString, not class (ATTR_STATEMENT_CLASS is a documented
 *   difference);
 * - warnings are compared by text, E_USER_WARNING/E_USER_DEPRECATED counting as E_WARNING/
 *   E_DEPRECATED (PHP code cannot raise the latter; documented);
 * - file and line are compared for PDOExceptions only: errors that PHP's internal functions
 *   throw point at the caller, Spindle's at the line of the library that throws them;
 * - streams (bindColumn with PARAM_LOB) are compared by contents;
 * - the numbers in ATTR_SERVER_INFO (uptime, counters) change between two calls;
 * - "Resource id #N" of a stream bound as PARAM_STR: resource numbers differ between two runs;
 * - with ATTR_STRINGIFY_FETCHES and emulated prepares, FLOAT and DOUBLE columns of the column
 *   type test are left out (a documented difference, asserted in DocumentedDifferencesTest).
 *
 * The deliberate differences of docs/database.md are asserted in DocumentedDifferencesTest.
 */
final class DifferentialTest extends DifferentialTestCase
{
    private const TYPES_TABLE = "CREATE TEMPORARY TABLE pdo_diff_types (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
        t_tiny TINYINT, t_utiny TINYINT UNSIGNED, t_small SMALLINT, t_usmall SMALLINT UNSIGNED,
        t_medium MEDIUMINT, t_umedium MEDIUMINT UNSIGNED, t_int INT, t_uint INT UNSIGNED,
        t_big BIGINT, t_ubig BIGINT UNSIGNED, t_dec DECIMAL(20,6), t_float FLOAT, t_float2 FLOAT(7,2),
        t_double DOUBLE, t_bit1 BIT(1), t_bit BIT(10), t_bit64 BIT(64), t_date DATE, t_datetime DATETIME(6),
        t_ts TIMESTAMP NULL DEFAULT NULL, t_time TIME(3), t_year YEAR, t_char CHAR(10), t_varchar VARCHAR(100),
        t_text TEXT, t_blob BLOB, t_json JSON, t_enum ENUM('a','b','c'), t_set SET('x','y','z'),
        t_binary BINARY(4), t_varbinary VARBINARY(10), t_bool BOOLEAN, t_zerofill INT(6) UNSIGNED ZEROFILL,
        t_unique INT UNIQUE, t_multiple INT, t_notnull VARCHAR(5) NOT NULL DEFAULT '', KEY (t_multiple)
    )";

    private const TYPES_COLUMNS = 'id, t_tiny, t_utiny, t_small, t_usmall, t_medium, t_umedium, t_int, t_uint, t_big, t_ubig,
        t_dec, t_float, t_float2, t_double, t_bit1, t_bit, t_bit64, t_date, t_datetime, t_ts, t_time, t_year, t_char,
        t_varchar, t_text, t_blob, t_json, t_enum, t_set, t_binary, t_varbinary, t_bool, t_zerofill, t_unique,
        t_multiple, t_notnull';

    private const TYPES_ROWS = "INSERT INTO pdo_diff_types (t_tiny, t_utiny, t_small, t_usmall, t_medium, t_umedium, t_int, t_uint,
            t_big, t_ubig, t_dec, t_float, t_float2, t_double, t_bit1, t_bit, t_bit64, t_date, t_datetime, t_ts, t_time,
            t_year, t_char, t_varchar, t_text, t_blob, t_json, t_enum, t_set, t_binary, t_varbinary, t_bool, t_zerofill,
            t_unique, t_multiple, t_notnull) VALUES
        (-128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0, -99999999999999.999999,
            -1.5, -3.14159, -0.1, b'0', b'0', b'0', '1000-01-01', '1000-01-01 00:00:00.000000', '1970-01-02 00:00:00',
            '-838:59:59.000', 1901, '', '', '', X'', '[]', 'a', '', X'00', X'', FALSE, 0, 1, 1, ''),
        (127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807,
            18446744073709551615, 99999999999999.999999, 3.40282e38, 99999.99, 1.7976931348623157e308, b'1',
            b'1111111111', b'1111111111111111111111111111111111111111111111111111111111111111', '9999-12-31',
            '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07', '838:59:59.000', 2155, 'char  ', 'varchar  ',
            'text', X'00FF', '{\"a\": [1, 2.5, null, \"x\"]}', 'c', 'x,y,z', X'FFFFFFFF', X'0102030405060708090A',
            TRUE, 4294967295, 2, 1, 'abcde'),
        (1, 1, 1, 1, 1, 1, 1, 1, 1, 9223372036854775808, 0.5, 1e25, 0.01, 1e-300, b'1', b'1000000010',
            b'111111111111111111111111111111111111111111111111111111111111111', '2024-02-29', '2024-02-29 13:14:15.5',
            '2024-02-29 13:14:15', '-00:00:01.500', 0, 'ä', 'h\\u00e9 ☃ 🎉 \\'\"\\\\', 'line\\nbreak\\r\\0nul',
            X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F7F808182FEFF5C27', '\"just a string\"',
            'b', 'z', X'61000000', X'5C27', 7, 42, 3, 2, 'n'),
        (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, DEFAULT)";

    private const PEOPLE = "CREATE TEMPORARY TABLE pdo_diff_people (
        id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL, grp CHAR(1), score FLOAT, note TEXT
    )";

    private const PEOPLE_ROWS = "INSERT INTO pdo_diff_people (name, grp, score, note) VALUES
        ('ann', 'a', 1.5, NULL), ('bob', 'b', 2, ''), ('cid', 'a', NULL, 'x'), ('dee', 'c', -0.25, '0')";

    /** @return iterable<string, array{bool}> */
    public function prepareModes(): iterable
    {
        yield 'emulated prepares' => [true];
        yield 'native prepares' => [false];
    }

    /** @return iterable<string, array{string}> */
    public function transports(): iterable
    {
        yield 'tcp' => ['tcp'];
        yield 'unix socket' => ['socket'];
    }

    /** @return iterable<string, array{bool, int}> */
    public function prepareModesAndErrorModes(): iterable
    {
        foreach ([true => 'emulated', false => 'native'] as $emulate => $name) {
            yield "$name prepares, ERRMODE_EXCEPTION" => [(bool) $emulate, \PDO::ERRMODE_EXCEPTION];
            yield "$name prepares, ERRMODE_WARNING" => [(bool) $emulate, \PDO::ERRMODE_WARNING];
            yield "$name prepares, ERRMODE_SILENT" => [(bool) $emulate, \PDO::ERRMODE_SILENT];
        }
    }

    /** @return array<int, bool> */
    private static function emulate(bool $emulate): array
    {
        return [\PDO::ATTR_EMULATE_PREPARES => $emulate];
    }

    private static function people(\PDO $db, Trace $t): void
    {
        $t->call('create people', fn () => $db->exec(self::PEOPLE));
        $t->call('insert people', fn () => $db->exec(self::PEOPLE_ROWS));
    }

    // ---- connecting and attributes ------------------------------------------------------------

    /** @dataProvider transports */
    public function testAttributesAfterConnect(string $transport): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $attributes = [
                'ATTR_AUTOCOMMIT' => \PDO::ATTR_AUTOCOMMIT,
                'ATTR_CASE' => \PDO::ATTR_CASE,
                'ATTR_CLIENT_VERSION' => \PDO::ATTR_CLIENT_VERSION,
                'ATTR_CONNECTION_STATUS' => \PDO::ATTR_CONNECTION_STATUS,
                'ATTR_DEFAULT_FETCH_MODE' => \PDO::ATTR_DEFAULT_FETCH_MODE,
                'ATTR_DEFAULT_STR_PARAM' => \PDO::ATTR_DEFAULT_STR_PARAM,
                'ATTR_DRIVER_NAME' => \PDO::ATTR_DRIVER_NAME,
                'ATTR_EMULATE_PREPARES' => \PDO::ATTR_EMULATE_PREPARES,
                'ATTR_ERRMODE' => \PDO::ATTR_ERRMODE,
                'ATTR_ORACLE_NULLS' => \PDO::ATTR_ORACLE_NULLS,
                'ATTR_SERVER_VERSION' => \PDO::ATTR_SERVER_VERSION,
                'ATTR_PERSISTENT' => \PDO::ATTR_PERSISTENT,
                'ATTR_PREFETCH' => \PDO::ATTR_PREFETCH,
                'ATTR_CURSOR' => \PDO::ATTR_CURSOR,
                'ATTR_CURSOR_NAME' => \PDO::ATTR_CURSOR_NAME,
                'ATTR_STRINGIFY_FETCHES' => \PDO::ATTR_STRINGIFY_FETCHES,
                'ATTR_TIMEOUT' => \PDO::ATTR_TIMEOUT,
                'ATTR_FETCH_TABLE_NAMES' => \PDO::ATTR_FETCH_TABLE_NAMES,
                'ATTR_FETCH_CATALOG_NAMES' => \PDO::ATTR_FETCH_CATALOG_NAMES,
                'ATTR_MAX_COLUMN_LEN' => \PDO::ATTR_MAX_COLUMN_LEN,
                'MYSQL_ATTR_USE_BUFFERED_QUERY' => Pdo::MYSQL_ATTR_USE_BUFFERED_QUERY,
                'MYSQL_ATTR_LOCAL_INFILE' => Pdo::MYSQL_ATTR_LOCAL_INFILE,
                'MYSQL_ATTR_INIT_COMMAND' => Pdo::MYSQL_ATTR_INIT_COMMAND,
                'MYSQL_ATTR_DIRECT_QUERY' => Pdo::MYSQL_ATTR_DIRECT_QUERY,
                'MYSQL_ATTR_FOUND_ROWS' => Pdo::MYSQL_ATTR_FOUND_ROWS,
                'MYSQL_ATTR_MULTI_STATEMENTS' => Pdo::MYSQL_ATTR_MULTI_STATEMENTS,
                'MYSQL_ATTR_LOCAL_INFILE_DIRECTORY' => Pdo::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY,
                'unknown 12345' => 12345,
            ];
            $t->call('errorCode before anything', fn () => $db->errorCode());
            $t->call('errorInfo before anything', fn () => $db->errorInfo());
            foreach ($attributes as $name => $attribute) {
                $t->call("getAttribute($name)", fn () => $db->getAttribute($attribute));
            }
            $db->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_SILENT);
            $t->call('getAttribute(unknown) silent', fn () => $db->getAttribute(12345));
            $t->call('errorInfo after unknown attribute', fn () => $db->errorInfo());
            $db->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_EXCEPTION);

            $changes = [
                [\PDO::ATTR_CASE, \PDO::CASE_LOWER],
                [\PDO::ATTR_CASE, 7],
                [\PDO::ATTR_ORACLE_NULLS, \PDO::NULL_TO_STRING],
                [\PDO::ATTR_ORACLE_NULLS, '1'],
                [\PDO::ATTR_ERRMODE, 9],
                [\PDO::ATTR_ERRMODE, 'x'],
                [\PDO::ATTR_DEFAULT_FETCH_MODE, \PDO::FETCH_OBJ],
                [\PDO::ATTR_DEFAULT_FETCH_MODE, \PDO::FETCH_CLASS],
                [\PDO::ATTR_DEFAULT_FETCH_MODE, 0],
                [\PDO::ATTR_EMULATE_PREPARES, false],
                [\PDO::ATTR_EMULATE_PREPARES, 'x'],
                [\PDO::ATTR_STRINGIFY_FETCHES, true],
                [\PDO::ATTR_AUTOCOMMIT, false],
                [\PDO::ATTR_AUTOCOMMIT, true],
                [\PDO::ATTR_DEFAULT_STR_PARAM, \PDO::PARAM_STR_NATL],
                [Pdo::MYSQL_ATTR_USE_BUFFERED_QUERY, false],
                [Pdo::MYSQL_ATTR_DIRECT_QUERY, true],
                [\PDO::ATTR_TIMEOUT, 5],
                [\PDO::ATTR_PERSISTENT, true],
                [12345, 1],
            ];
            foreach ($changes as $i => [$attribute, $value]) {
                $t->call("setAttribute #$i", fn () => $db->setAttribute($attribute, $value));
                $t->call("getAttribute #$i", fn () => $db->getAttribute($attribute));
                $t->call("errorCode #$i", fn () => $db->errorCode());
            }
            // The numbers of the status line change from one call to the next: only its form is compared.
            $t->call('ATTR_SERVER_INFO', fn () => preg_replace('/\d+(\.\d+)?/', 'N', (string) $db->getAttribute(\PDO::ATTR_SERVER_INFO)));
            $t->call('session character set', fn () => $db->query('SELECT @@character_set_client, @@character_set_connection, @@character_set_results, @@collation_connection')->fetch(\PDO::FETCH_NUM));
            $t->call('ATTR_FETCH_TABLE_NAMES', fn () => $db->setAttribute(\PDO::ATTR_FETCH_TABLE_NAMES, true));
            $t->call('table names', fn () => $db->query('SELECT a.x, b.x AS y, 1 AS z FROM (SELECT 1 AS x) a, (SELECT 2 AS x) b')->fetch(\PDO::FETCH_ASSOC));
            $t->call('table names meta', fn () => $db->query('SELECT a.x FROM (SELECT 1 AS x) a')->getColumnMeta(0));
        }, [], $transport);
    }

    public function testConnectionErrors(): void
    {
        $this->differentialSides(static function (string $side, Trace $t): void {
            $env = self::env();
            $t->call('wrong password', fn () => self::open($side, [], self::dsn(), null, 'wrong'));
            $t->call('unknown database', fn () => self::open($side, [], str_replace('dbname=' . $env['MYSQL_DATABASE'], 'dbname=pdo_diff_nope', self::dsn())));
            $t->call('refused', fn () => self::open($side, [], 'mysql:host=127.0.0.1;port=1;dbname=x'));
            $t->call('missing socket', fn () => self::open($side, [], 'mysql:unix_socket=/tmp/pdo-diff-none.sock;dbname=x'));
            $t->call('bad init command', fn () => self::open($side, [Pdo::MYSQL_ATTR_INIT_COMMAND => 'SELEC 1']));
            $t->call('unknown charset', fn () => self::open($side, [], self::dsn('tcp', 'nonsense')));
            $t->call('unknown host', fn () => self::open($side, [], 'mysql:host=pdo-diff.invalid;dbname=x'));
            // A driver no PHP build has: with pdo_sqlite installed, native PDO would open "sqlite:…".
            $t->call('not mysql', fn () => self::open($side, [], 'nosuchdriver:x'));
            $t->call('no colon', fn () => self::open($side, [], 'garbage'));
            $t->call('bad ERRMODE option', fn () => self::open($side, [\PDO::ATTR_ERRMODE => 99]));
            $t->call('init command runs', function () use ($side): mixed {
                $db = self::open($side, [Pdo::MYSQL_ATTR_INIT_COMMAND => 'SET @pdo_diff = 42']);

                return $db->query('SELECT @pdo_diff')->fetchColumn();
            });
            $t->call('ERRMODE_SILENT option', fn () => self::open($side, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_SILENT])->getAttribute(\PDO::ATTR_ERRMODE));
            $t->call('no options', fn () => self::open($side, null)->getAttribute(\PDO::ATTR_ERRMODE));
            $t->call('no charset in the DSN', fn () => self::open($side, [], str_replace(';charset=utf8mb4', '', self::dsn()))->query('SELECT @@character_set_client, @@collation_connection')->fetch(\PDO::FETCH_NUM));
            $t->call('utf8 charset', fn () => self::open($side, [], self::dsn('tcp', 'utf8'))->query('SELECT @@character_set_client, @@collation_connection')->fetch(\PDO::FETCH_NUM));
            $t->call('MULTI_STATEMENTS off', fn () => self::open($side, [Pdo::MYSQL_ATTR_MULTI_STATEMENTS => false])->query('SELECT 1; SELECT 2'));
            $t->call('MULTI_STATEMENTS off, one statement', fn () => self::open($side, [Pdo::MYSQL_ATTR_MULTI_STATEMENTS => false])->query('SELECT 1')->fetchAll());
            $t->call('ATTR_AUTOCOMMIT option', function () use ($side): mixed {
                $db = self::open($side, [\PDO::ATTR_AUTOCOMMIT => false]);

                return [$db->getAttribute(\PDO::ATTR_AUTOCOMMIT), $db->query('SELECT @@autocommit')->fetchColumn(), $db->inTransaction()];
            });
            $t->call('options in the constructor', fn () => self::open($side, [\PDO::ATTR_CASE => \PDO::CASE_UPPER, \PDO::ATTR_DEFAULT_FETCH_MODE => \PDO::FETCH_NUM, \PDO::ATTR_ORACLE_NULLS => \PDO::NULL_TO_STRING, \PDO::ATTR_STRINGIFY_FETCHES => true])->query('SELECT 1 AS a, NULL AS b')->fetch());
            $t->call('timeout option', fn () => self::open($side, [\PDO::ATTR_TIMEOUT => 3])->getAttribute(\PDO::ATTR_CONNECTION_STATUS));
            $t->call('user and password in the DSN', fn () => self::open($side, [], self::dsn() . ';user=nobody;password=wrong', 'spindle', 'spindle')->query('SELECT CURRENT_USER()')->fetchColumn());
            $t->call('host=localhost means the socket', fn () => self::open($side, [], 'mysql:host=localhost;unix_socket=' . $env['MYSQL_SOCKET'])->getAttribute(\PDO::ATTR_CONNECTION_STATUS));
        });
    }

    // ---- quoting ------------------------------------------------------------------------------

    /** @return iterable<string, array{string, string}> */
    public function charsets(): iterable
    {
        yield 'utf8mb4 over tcp' => ['utf8mb4', 'tcp'];
        yield 'utf8mb4 over unix socket' => ['utf8mb4', 'socket'];
        yield 'latin1' => ['latin1', 'tcp'];
        yield 'gbk' => ['gbk', 'tcp'];
        yield 'sjis' => ['sjis', 'tcp'];
        yield 'big5' => ['big5', 'tcp'];
        yield 'utf8' => ['utf8', 'tcp'];
        yield 'cp932' => ['cp932', 'tcp'];
        yield 'ujis' => ['ujis', 'tcp'];
        yield 'eucjpms' => ['eucjpms', 'tcp'];
        yield 'euckr' => ['euckr', 'tcp'];
        yield 'gb2312' => ['gb2312', 'tcp'];
        yield 'binary' => ['binary', 'tcp'];
    }

    /** @dataProvider charsets */
    public function testQuote(string $charset, string $transport): void
    {
        $strings = [
            '', 'plain', "it's", 'say "hi"', 'back\\slash', "\\'", "nul\0byte", "line\nfeed\rreturn", "ctrl-z\x1A",
            "tab\tend", '%_', "h\u{e9}llo \u{2603} \u{1F389}", "\xC3", "\xFF\xFE\x00\x27", "\xBF\x27 OR 1=1 -- ",
            "\x81\x5C\x27", "\xA4\x5C", "\xE0\x80\x27", "\xF0\x9F\x98", implode('', array_map('chr', range(0, 255))),
        ];
        $this->differentialSides(static function (string $side, Trace $t) use ($strings, $charset, $transport): void {
            $db = self::open($side, [], self::dsn($transport, $charset));
            foreach ([false, true] as $noBackslashEscapes) {
                if ($noBackslashEscapes) {
                    $t->call('NO_BACKSLASH_ESCAPES', fn () => $db->exec("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'"));
                }
                foreach ($strings as $i => $string) {
                    $quoted = $t->call("quote #$i", fn () => $db->quote($string));
                    $t->call("quote #$i PARAM_STR_NATL", fn () => $db->quote($string, \PDO::PARAM_STR | \PDO::PARAM_STR_NATL));
                    $t->call("quote #$i PARAM_INT", fn () => $db->quote($string, \PDO::PARAM_INT));
                    $t->call("quote #$i PARAM_LOB", fn () => $db->quote($string, \PDO::PARAM_LOB));
                    $t->call("round trip #$i", fn () => $db->query('SELECT HEX(' . $quoted . ')')->fetchColumn());
                }
            }
            $t->call('ATTR_DEFAULT_STR_PARAM', fn () => $db->setAttribute(\PDO::ATTR_DEFAULT_STR_PARAM, \PDO::PARAM_STR_NATL));
            $t->call('quote NATL by default', fn () => $db->quote('x'));
            $t->call('quote PARAM_STR_CHAR', fn () => $db->quote('x', \PDO::PARAM_STR | \PDO::PARAM_STR_CHAR));
        });
    }

    // ---- types ------------------------------------------------------------------------------

    /** @dataProvider prepareModes */
    public function testEveryColumnType(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $t->call('create', fn () => $db->exec(self::TYPES_TABLE));
            $t->call('insert', fn () => $db->exec(self::TYPES_ROWS));
            $t->call('warnings', fn () => $db->query('SHOW WARNINGS')->fetchAll(\PDO::FETCH_ASSOC));
            $t->call('lastInsertId', fn () => $db->lastInsertId());
            foreach ([false, true] as $stringify) {
                $t->call("stringify $stringify", fn () => $db->setAttribute(\PDO::ATTR_STRINGIFY_FETCHES, $stringify));
                $columns = self::TYPES_COLUMNS;
                if ($stringify && $db->getAttribute(\PDO::ATTR_EMULATE_PREPARES)) {
                    // Stringified FLOAT/DOUBLE of the text protocol: a documented difference.
                    $columns = str_replace(['t_float,', 't_double,'], ['NULL AS t_float,', 'NULL AS t_double,'], $columns);
                }
                $st = $t->call('query', fn () => $db->query('SELECT ' . $columns . ' FROM pdo_diff_types ORDER BY id'));
                $t->call('columnCount', fn () => $st->columnCount());
                $t->call('rowCount', fn () => $st->rowCount());
                for ($i = 0; $i <= 37; ++$i) {
                    $t->call("getColumnMeta($i)", fn () => $st->getColumnMeta($i));
                }
                $t->call('fetchAll', fn () => $st->fetchAll(\PDO::FETCH_ASSOC));

                $st = $t->call('prepare', fn () => $db->prepare('SELECT ' . $columns . ' FROM pdo_diff_types WHERE id >= ? ORDER BY id'));
                $t->call('execute', fn () => $st->execute([2]));
                $t->call('fetch num', fn () => $st->fetch(\PDO::FETCH_NUM));
                $t->call('fetch obj', fn () => $st->fetch(\PDO::FETCH_OBJ));
                $t->call('fetch both', fn () => $st->fetch(\PDO::FETCH_BOTH));
                $t->call('fetch end', fn () => $st->fetch());
            }
        }, self::emulate($emulate));
    }

    /** @dataProvider prepareModes */
    public function testExpressions(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $expressions = [
                '1', '-1', '1.5', '1e3', 'NULL', "'x'", "''", '9223372036854775807 + 1', '-9223372036854775808',
                "b'101'", "b'11111111'", "X'41'", 'CAST(1 AS UNSIGNED)', 'CAST(-1 AS UNSIGNED)', '-0.0', '1/3',
                "CAST('2020-01-02' AS DATE)", "CAST('2020-01-02 03:04:05.25' AS DATETIME(2))", "CAST('-12:00:00' AS TIME)",
                "CAST('1.50' AS DECIMAL(5,2))", 'TRUE', 'PI()', 'CAST(0.1 AS DOUBLE)', 'CAST(1e300 * 10 AS DOUBLE)',
                "CAST(0.1 AS FLOAT)", "JSON_OBJECT('k', 1)", "CONVERT('ä' USING latin1)", "_binary 'ä'",
                'YEAR(\'2024-01-01\')', 'CAST(255 AS BINARY)', 'COUNT(*)', 'SUM(1)', 'AVG(2)', "CONCAT('a', 1)",
                'LENGTH(\'abc\')', 'NOW() IS NOT NULL', 'CAST(18446744073709551615 AS UNSIGNED)',
            ];
            foreach ($expressions as $expression) {
                $st = $t->call("query $expression", fn () => $db->query("SELECT $expression AS v"));
                $t->call("meta $expression", fn () => $st->getColumnMeta(0));
                $t->call("fetch $expression", fn () => $st->fetch(\PDO::FETCH_NUM));
            }
            $db->setAttribute(\PDO::ATTR_STRINGIFY_FETCHES, true);
            foreach ($expressions as $expression) {
                if (str_contains($expression, 'e3') || str_contains($expression, 'e300')) {
                    continue;
                }
                $t->call("stringified $expression", fn () => $db->query("SELECT $expression AS v")->fetchColumn());
            }
        }, self::emulate($emulate));
    }

    /**
     * BIT through both protocols: mysqlnd gives an int (a decimal string beyond PHP_INT_MAX or
     * with ATTR_STRINGIFY_FETCHES), never the raw bytes.
     *
     * @dataProvider prepareModes
     */
    public function testBit(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $t->call('create', fn () => $db->exec('CREATE TEMPORARY TABLE pdo_diff_bits (b1 BIT(1), b8 BIT(8), b17 BIT(17), b63 BIT(63), b64 BIT(64))'));
            $t->call('insert', fn () => $db->exec("INSERT INTO pdo_diff_bits VALUES
                (b'0', b'0', b'0', b'0', b'0'), (b'1', 255, 65537, 9223372036854775807, 18446744073709551615),
                (b'1', 128, 1, 4611686018427387904, 9223372036854775808), (NULL, NULL, NULL, NULL, NULL)"));
            foreach ([false, true] as $stringify) {
                $db->setAttribute(\PDO::ATTR_STRINGIFY_FETCHES, $stringify);
                $st = $t->call('select', fn () => $db->query('SELECT * FROM pdo_diff_bits'));
                for ($i = 0; $i < 5; ++$i) {
                    $t->call("meta $i", fn () => $st->getColumnMeta($i));
                }
                $t->call('fetchAll', fn () => $st->fetchAll(\PDO::FETCH_NUM));
                $st = $t->call('prepare', fn () => $db->prepare('SELECT b8, b64 FROM pdo_diff_bits WHERE b8 = ?'));
                $t->call('execute', fn () => $st->execute([255]));
                $t->call('fetch', fn () => $st->fetch(\PDO::FETCH_NUM));
                $t->call('bound', function () use ($db): mixed {
                    $st = $db->query('SELECT b8, b64 FROM pdo_diff_bits');
                    $st->bindColumn(1, $a, \PDO::PARAM_STR);
                    $st->bindColumn(2, $b, \PDO::PARAM_INT);
                    $out = [];
                    while ($st->fetch(\PDO::FETCH_BOUND)) {
                        $out[] = [$a, $b];
                    }

                    return $out;
                });
            }
            $t->call('expression', fn () => $db->query("SELECT b'1010', b'1' + 0, BIT_COUNT(b'111')")->fetch(\PDO::FETCH_NUM));
        }, self::emulate($emulate));
    }

    // ---- fetching ---------------------------------------------------------------------------

    /** @dataProvider prepareModes */
    public function testFetchModes(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $select = 'SELECT id, name, grp, score, note FROM pdo_diff_people ORDER BY id';
            $modes = [
                'ASSOC' => [\PDO::FETCH_ASSOC], 'NUM' => [\PDO::FETCH_NUM], 'BOTH' => [\PDO::FETCH_BOTH],
                'OBJ' => [\PDO::FETCH_OBJ], 'NAMED' => [\PDO::FETCH_NAMED], 'DEFAULT' => [\PDO::FETCH_DEFAULT],
                'COLUMN' => [\PDO::FETCH_COLUMN], 'COLUMN 2' => [\PDO::FETCH_COLUMN, 2],
                'CLASS' => [\PDO::FETCH_CLASS, FetchTarget::class],
                'CLASS ctor args' => [\PDO::FETCH_CLASS, FetchTarget::class, ['a', 1]],
                'CLASS PROPS_LATE' => [\PDO::FETCH_CLASS | \PDO::FETCH_PROPS_LATE, FetchTarget::class, ['late']],
                'CLASS stdClass' => [\PDO::FETCH_CLASS, \stdClass::class],
                'GROUP ASSOC' => [\PDO::FETCH_GROUP | \PDO::FETCH_ASSOC],
                'GROUP NUM' => [\PDO::FETCH_GROUP | \PDO::FETCH_NUM],
                'UNIQUE ASSOC' => [\PDO::FETCH_UNIQUE | \PDO::FETCH_ASSOC],
                'UNIQUE OBJ' => [\PDO::FETCH_UNIQUE | \PDO::FETCH_OBJ],
                'GROUP COLUMN' => [\PDO::FETCH_GROUP | \PDO::FETCH_COLUMN],
                'GROUP COLUMN 2' => [\PDO::FETCH_GROUP | \PDO::FETCH_COLUMN, 2],
                'UNIQUE COLUMN' => [\PDO::FETCH_UNIQUE | \PDO::FETCH_COLUMN],
                'FUNC' => [\PDO::FETCH_FUNC, static fn (mixed ...$values): array => $values],
                'bad mode' => [99],
                'LAZY in fetchAll' => [\PDO::FETCH_LAZY],
                'COLUMN out of range' => [\PDO::FETCH_COLUMN, 9],
            ];
            foreach ($modes as $name => $args) {
                $st = $t->call("query for $name", fn () => $db->query($select));
                $t->call("fetchAll $name", fn () => $st->fetchAll(...$args));
                $t->call("fetchAll again $name", fn () => $st->fetchAll(...$args));
                $single = $args;
                if (\in_array($args[0], [\PDO::FETCH_FUNC, \PDO::FETCH_LAZY], true) || ($args[0] & \PDO::FETCH_GROUP) !== 0) {
                    continue;
                }
                $st = $t->call("query for fetch $name", fn () => $db->query($select));
                $t->call("setFetchMode $name", fn () => $st->setFetchMode(...$single));
                $t->call("fetch $name", fn () => $st->fetch());
                $t->call("foreach $name", function () use ($st): array {
                    $rows = [];
                    foreach ($st as $key => $row) {
                        $rows[$key] = $row;
                    }

                    return $rows;
                });
            }

            $st = $t->call('query pairs', fn () => $db->query('SELECT name, score FROM pdo_diff_people ORDER BY id'));
            $t->call('KEY_PAIR', fn () => $st->fetchAll(\PDO::FETCH_KEY_PAIR));
            $st = $t->call('query pairs', fn () => $db->query('SELECT id, name FROM pdo_diff_people ORDER BY id'));
            $t->call('fetch KEY_PAIR', fn () => $st->fetch(\PDO::FETCH_KEY_PAIR));
            $st = $t->call('query three', fn () => $db->query($select));
            $t->call('KEY_PAIR three columns', fn () => $st->fetchAll(\PDO::FETCH_KEY_PAIR));

            $st = $t->call('classtype', fn () => $db->query("SELECT IF(id = 1, '" . addslashes(FetchTarget::class) . "', IF(id = 2, 'NoSuchClass', NULL)) AS cls, id, name FROM pdo_diff_people ORDER BY id"));
            $t->call('CLASSTYPE', fn () => $st->fetchAll(\PDO::FETCH_CLASS | \PDO::FETCH_CLASSTYPE));

            $st = $t->call('duplicate names', fn () => $db->query('SELECT a.id, b.id, a.name AS id FROM pdo_diff_people a JOIN pdo_diff_people b ON b.id = a.id + 1 ORDER BY a.id'));
            $t->call('NAMED duplicates', fn () => $st->fetch(\PDO::FETCH_NAMED));
            $t->call('ASSOC duplicates', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $t->call('BOTH duplicates', fn () => $st->fetch(\PDO::FETCH_BOTH));

            $st = $t->call('into', fn () => $db->query($select));
            $into = new FetchTarget('made');
            $t->call('setFetchMode INTO', fn () => $st->setFetchMode(\PDO::FETCH_INTO, $into));
            $t->call('fetch INTO', fn () => $st->fetch());
            $t->call('fetch INTO again', fn () => $st->fetch());
            $t->call('same object', fn () => $st->fetch() === $into);

            $st = $t->call('fetchColumn', fn () => $db->query($select));
            $t->call('fetchColumn()', fn () => $st->fetchColumn());
            $t->call('fetchColumn(3)', fn () => $st->fetchColumn(3));
            $t->call('fetchColumn(4)', fn () => $st->fetchColumn(4));
            $t->call('fetchColumn(5)', fn () => $st->fetchColumn(5));
            $t->call('fetchColumn(-1)', fn () => $st->fetchColumn(-1));
            $t->call('fetchColumn at end', fn () => $st->fetchColumn());

            $st = $t->call('fetchObject', fn () => $db->query($select));
            $t->call('fetchObject()', fn () => $st->fetchObject());
            $t->call('fetchObject(class, args)', fn () => $st->fetchObject(FetchTarget::class, ['x', 2]));
            $t->call('fetchObject(class)', fn () => $st->fetchObject(FetchTarget::class));
            $t->call('fetchObject(unknown)', fn () => $st->fetchObject('NoSuchClass'));
            $t->call('fetchObject at end', fn () => $st->fetchObject());

            $st = $t->call('bound', fn () => $db->prepare('SELECT id, name, score, note FROM pdo_diff_people ORDER BY id'));
            $t->call('bindColumn 1 INT', fn () => $st->bindColumn(1, $id, \PDO::PARAM_INT));
            $t->call('bindColumn name STR', fn () => $st->bindColumn('name', $name));
            $t->call('bindColumn 3 BOOL', fn () => $st->bindColumn(3, $score, \PDO::PARAM_BOOL));
            $t->call('bindColumn 4 LOB', fn () => $st->bindColumn(4, $note, \PDO::PARAM_LOB));
            $t->call('bindColumn unknown', fn () => $st->bindColumn('nope', $nope));
            $t->call('execute', fn () => $st->execute());
            $t->call('bindColumn unknown after execute', fn () => $st->bindColumn('nope', $nope));
            $t->call('bindColumn 0', fn () => $st->bindColumn(0, $nope));
            for ($i = 0; $i < 5; ++$i) {
                $t->call("fetch BOUND $i", fn () => $st->fetch(\PDO::FETCH_BOUND));
                $t->call("bound values $i", fn () => [$id, $name, $score, $note]);
            }
            $t->call('bound after ASSOC', fn () => [$st->execute(), $st->fetch(\PDO::FETCH_ASSOC), $id, $name]);

            $st = $t->call('fetch after end', fn () => $db->query('SELECT 1 AS one'));
            $t->call('fetch', fn () => $st->fetch());
            $t->call('fetch end', fn () => $st->fetch());
            $t->call('fetchAll end', fn () => $st->fetchAll());
            $t->call('errorInfo end', fn () => $st->errorInfo());
            $t->call('fetch no result', fn () => $db->prepare('SELECT 1')->fetch());
            $t->call('fetchAll no result', fn () => $db->prepare('SELECT 1')->fetchAll());
            $t->call('fetch of DO', fn () => $db->query('DO 1')->fetch());
        }, self::emulate($emulate));
    }

    /** @dataProvider prepareModes */
    public function testDefaultFetchModeOption(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $t->call('fetch', fn () => $db->query('SELECT id, name FROM pdo_diff_people ORDER BY id')->fetch());
            $t->call('query with mode', fn () => $db->query('SELECT id, name FROM pdo_diff_people ORDER BY id', \PDO::FETCH_COLUMN, 1)->fetchAll());
            $t->call('query with class', fn () => $db->query('SELECT id, name FROM pdo_diff_people ORDER BY id', \PDO::FETCH_CLASS, FetchTarget::class, [1])->fetch());
            $t->call('query with bad mode args', fn () => $db->query('SELECT 1', \PDO::FETCH_ASSOC, 1));
            $t->call('query with INTO', fn () => $db->query('SELECT name FROM pdo_diff_people ORDER BY id', \PDO::FETCH_INTO, new \stdClass())->fetch());
            $t->call('setAttribute NUM', fn () => $db->setAttribute(\PDO::ATTR_DEFAULT_FETCH_MODE, \PDO::FETCH_NUM));
            $t->call('fetchAll default', fn () => $db->query('SELECT id, name FROM pdo_diff_people ORDER BY id')->fetchAll());
            $t->call('prepared default', function () use ($db): mixed {
                $st = $db->prepare('SELECT id, name FROM pdo_diff_people WHERE id = ?');
                $st->execute([2]);

                return $st->fetch();
            });
        }, self::emulate($emulate) + [\PDO::ATTR_DEFAULT_FETCH_MODE => \PDO::FETCH_OBJ]);
    }

    /** @dataProvider prepareModes */
    public function testCaseOracleNullsAndStringify(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $select = 'SELECT id AS Id, name AS NaMe, score AS SCORE, note AS note, NULL AS `Null`, \'\' AS Empty, 0 AS Zero FROM pdo_diff_people ORDER BY id';
            foreach ([\PDO::CASE_NATURAL, \PDO::CASE_UPPER, \PDO::CASE_LOWER] as $case) {
                foreach ([\PDO::NULL_NATURAL, \PDO::NULL_EMPTY_STRING, \PDO::NULL_TO_STRING] as $nulls) {
                    foreach ([false, true] as $stringify) {
                        $label = "case $case nulls $nulls stringify " . (int) $stringify;
                        $db->setAttribute(\PDO::ATTR_CASE, $case);
                        $db->setAttribute(\PDO::ATTR_ORACLE_NULLS, $nulls);
                        $db->setAttribute(\PDO::ATTR_STRINGIFY_FETCHES, $stringify);
                        $st = $t->call("query $label", fn () => $db->query($select));
                        $t->call("meta $label", fn () => $st->getColumnMeta(1));
                        $t->call("fetchAll $label", fn () => $st->fetchAll(\PDO::FETCH_ASSOC));
                        $st = $t->call("prepare $label", fn () => $db->prepare($select));
                        $t->call("bindColumn $label", fn () => $st->bindColumn('name', $name));
                        $t->call("bindColumn upper $label", fn () => $st->bindColumn('NAME', $upper));
                        $t->call("execute $label", fn () => $st->execute());
                        $t->call("fetch $label", fn () => [$st->fetch(\PDO::FETCH_OBJ), $name, $upper]);
                        $t->call("fetchColumn $label", fn () => [$st->fetchColumn(4), $st->fetchColumn(3), $st->fetchColumn(5)]);
                    }
                }
            }
        }, self::emulate($emulate));
    }

    // ---- counts and ids -----------------------------------------------------------------------

    /** @dataProvider prepareModes */
    public function testRowCountsAndInsertIds(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $t->call('lastInsertId first', fn () => $db->lastInsertId());
            $t->call('exec create', fn () => $db->exec('CREATE TEMPORARY TABLE pdo_diff_counts (id INT AUTO_INCREMENT PRIMARY KEY, v INT, u INT UNIQUE)'));
            $t->call('exec insert 3 rows', fn () => $db->exec('INSERT INTO pdo_diff_counts (v, u) VALUES (1, 1), (2, 2), (3, 3)'));
            $t->call('lastInsertId after multi-row', fn () => $db->lastInsertId());
            $t->call('lastInsertId with name', fn () => $db->lastInsertId('ignored'));
            $t->call('exec explicit id', fn () => $db->exec('INSERT INTO pdo_diff_counts (id, v) VALUES (100, 4)'));
            $t->call('lastInsertId explicit', fn () => $db->lastInsertId());
            $t->call('exec next', fn () => $db->exec('INSERT INTO pdo_diff_counts (v) VALUES (5)'));
            $t->call('lastInsertId next', fn () => $db->lastInsertId());
            $t->call('exec update matching 5, changing 2', fn () => $db->exec('UPDATE pdo_diff_counts SET v = 2 WHERE v <= 3 OR id > 99'));
            $t->call('exec update none', fn () => $db->exec('UPDATE pdo_diff_counts SET v = 2 WHERE 0'));
            $t->call('lastInsertId after update', fn () => $db->lastInsertId());
            $t->call('exec upsert', fn () => $db->exec('INSERT INTO pdo_diff_counts (v, u) VALUES (9, 1) ON DUPLICATE KEY UPDATE v = 9'));
            $t->call('lastInsertId upsert', fn () => $db->lastInsertId());
            $t->call('exec upsert unchanged', fn () => $db->exec('INSERT INTO pdo_diff_counts (v, u) VALUES (9, 1) ON DUPLICATE KEY UPDATE v = 9'));
            $t->call('exec replace', fn () => $db->exec('REPLACE INTO pdo_diff_counts (id, v, u) VALUES (1, 7, 1)'));
            $t->call('exec insert ignore', fn () => $db->exec('INSERT IGNORE INTO pdo_diff_counts (id, v) VALUES (1, 0)'));
            $t->call('exec set', fn () => $db->exec('SET @pdo_diff = 1'));
            $t->call('exec do', fn () => $db->exec('DO 1'));
            $t->call('exec multi', fn () => $db->exec('INSERT INTO pdo_diff_counts (v) VALUES (1); INSERT INTO pdo_diff_counts (v) VALUES (2), (3)'));
            $t->call('lastInsertId after multi', fn () => $db->lastInsertId());
            $t->call('exec delete', fn () => $db->exec('DELETE FROM pdo_diff_counts WHERE id > 100'));
            $t->call('exec empty', fn () => $db->exec(''));
            $t->call('exec whitespace', fn () => $db->exec(' '));

            $st = $t->call('prepare insert', fn () => $db->prepare('INSERT INTO pdo_diff_counts (v) VALUES (?), (?)'));
            $t->call('columnCount before', fn () => $st->columnCount());
            $t->call('rowCount before', fn () => $st->rowCount());
            $t->call('execute', fn () => $st->execute([10, 11]));
            $t->call('rowCount', fn () => $st->rowCount());
            $t->call('columnCount', fn () => $st->columnCount());
            $t->call('lastInsertId', fn () => $db->lastInsertId());
            $t->call('getColumnMeta(0) of insert', fn () => $st->getColumnMeta(0));
            $t->call('fetch of insert', fn () => $st->fetch());
            $t->call('fetchAll of insert', fn () => $st->fetchAll());
            $t->call('errorInfo after fetch of insert', fn () => $st->errorInfo());

            $st = $t->call('prepare update', fn () => $db->prepare('UPDATE pdo_diff_counts SET v = v + 1 WHERE v > ?'));
            $t->call('execute update', fn () => $st->execute([5]));
            $t->call('rowCount update', fn () => $st->rowCount());
            $t->call('execute update again', fn () => $st->execute([500]));
            $t->call('rowCount update again', fn () => $st->rowCount());

            $st = $t->call('select', fn () => $db->query('SELECT * FROM pdo_diff_counts ORDER BY id'));
            $t->call('select rowCount', fn () => $st->rowCount());
            $t->call('select columnCount', fn () => $st->columnCount());
            $t->call('lastInsertId after select', fn () => $db->lastInsertId());
            $t->call('rows', fn () => $st->fetchAll(\PDO::FETCH_NUM));
            $t->call('select rowCount after fetch', fn () => $st->rowCount());
            $st = $t->call('prepare select', fn () => $db->prepare('SELECT * FROM pdo_diff_counts WHERE id > ?'));
            $t->call('select columnCount before execute', fn () => $st->columnCount());
            $t->call('getColumnMeta before execute', fn () => $st->getColumnMeta(0));
            $t->call('execute select', fn () => $st->execute([3]));
            $t->call('select rowCount prepared', fn () => $st->rowCount());
            $t->call('getColumnMeta(-1)', fn () => $st->getColumnMeta(-1));
            $t->call('getColumnMeta(3)', fn () => $st->getColumnMeta(3));
            $t->call('exec truncate', fn () => $db->exec('TRUNCATE TABLE pdo_diff_counts'));
            $t->call('exec drop', fn () => $db->exec('DROP TEMPORARY TABLE pdo_diff_counts'));
        }, self::emulate($emulate));
    }

    // ---- binding -----------------------------------------------------------------------------

    /** @dataProvider prepareModes */
    public function testBindValueTypes(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $stream = static function (string $contents) {
                $s = fopen('php://memory', 'r+');
                fwrite($s, $contents);
                rewind($s);

                return $s;
            };
            $values = [
                'int' => [42, -7, 0, PHP_INT_MAX, PHP_INT_MIN, '42', '-0', ' 7', '4.5', 'abc', '', 1.9, -1.9, 1e20, true, false, null],
                'str' => ['x', '', "it's", "\0\\", "h\u{e9}", 42, 1.5, -0.0, 1e100, true, false, null],
                'bool' => [true, false, 1, 0, 2, '1', '0', 'abc', '', 1.5, null],
                'null' => [null, 'x', 0, false],
                'lob' => ["\x00\xFF\x27\x5C", '', 'text', 12, null],
                'str natl' => ["h\u{e9}", 'x'],
                'str char' => ["h\u{e9}"],
                'stmt' => ['x'],
                'unknown type 99' => ['x', 5],
            ];
            $types = [
                'int' => \PDO::PARAM_INT, 'str' => \PDO::PARAM_STR, 'bool' => \PDO::PARAM_BOOL, 'null' => \PDO::PARAM_NULL,
                'lob' => \PDO::PARAM_LOB, 'str natl' => \PDO::PARAM_STR | \PDO::PARAM_STR_NATL,
                'str char' => \PDO::PARAM_STR | \PDO::PARAM_STR_CHAR, 'stmt' => \PDO::PARAM_STMT, 'unknown type 99' => 99,
            ];
            $db->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_WARNING);
            foreach ($values as $typeName => $list) {
                foreach ($list as $i => $value) {
                    $label = "$typeName #$i";
                    $st = $db->prepare('SELECT ? AS v, ? IS NULL AS n, HEX(?) AS h');
                    $t->call("bindValue $label", fn () => [$st->bindValue(1, $value, $types[$typeName]), $st->bindValue(2, $value, $types[$typeName]), $st->bindValue(3, $value, $types[$typeName])]);
                    $t->call("execute $label", fn () => $st->execute());
                    $t->call("fetch $label", fn () => $st->fetch(\PDO::FETCH_ASSOC));
                    $t->call("errorInfo $label", fn () => $st->errorInfo());
                }
            }
            $st = $db->prepare('SELECT ? AS v, HEX(?) AS h');
            $t->call('bindValue LOB stream', fn () => [$st->bindValue(1, $stream("s\0tream"), \PDO::PARAM_LOB), $st->bindValue(2, $stream("s\0tream"), \PDO::PARAM_LOB)]);
            $t->call('execute LOB stream', fn () => $st->execute());
            $t->call('fetch LOB stream', fn () => $st->fetch(\PDO::FETCH_ASSOC));
            $st = $db->prepare('SELECT ? AS v');
            $t->call('bindValue STR stream', fn () => $st->bindValue(1, $stream('x'), \PDO::PARAM_STR));
            $t->call('execute STR stream', fn () => $st->execute());
            $t->call('fetch STR stream', fn () => preg_replace('/#\d+$/', '#N', (string) $st->fetchColumn()));
            $closed = $stream('x');
            fclose($closed);
            foreach ([\PDO::ERRMODE_EXCEPTION, \PDO::ERRMODE_WARNING, \PDO::ERRMODE_SILENT] as $mode) {
                $db->setAttribute(\PDO::ATTR_ERRMODE, $mode);
                $t->call("$mode bindValue LOB closed", fn () => $st->bindValue(1, $closed, \PDO::PARAM_LOB));
                $t->call("$mode execute LOB closed", fn () => $st->execute());
                $t->call("$mode errorInfo LOB closed", fn () => $st->errorInfo());
                $t->call("$mode bindValue LOB not a stream", fn () => $st->bindValue(1, stream_context_create(), \PDO::PARAM_LOB));
                $t->call("$mode execute LOB not a stream", fn () => $st->execute());
                $t->call("$mode errorInfo LOB not a stream", fn () => $st->errorInfo());
            }
            $db->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_WARNING);
            $t->call('bindValue object', fn () => $st->bindValue(1, new \stdClass()));
            $t->call('bindValue stringable', fn () => $st->bindValue(1, new \ArrayIterator([])));
            $t->call('bindValue array', fn () => $st->bindValue(1, [1]));
            $t->call('execute array value', fn () => $st->execute());
            $t->call('execute([array])', fn () => $st->execute([[1]]));
            $t->call('execute([float])', fn () => [$st->execute([1.25]), $st->fetch(\PDO::FETCH_NUM)]);
            $t->call('execute([int])', fn () => [$st->execute([-3]), $st->fetch(\PDO::FETCH_NUM)]);
            $t->call('execute([bool])', fn () => [$st->execute([true]), $st->fetch(\PDO::FETCH_NUM)]);
            $t->call('execute([null])', fn () => [$st->execute([null]), $st->fetch(\PDO::FETCH_NUM)]);
            $t->call('execute([string])', fn () => [$st->execute(['s']), $st->fetch(\PDO::FETCH_NUM), $st->getColumnMeta(0)]);
            $t->call('execute([int]) again', fn () => [$st->execute([7]), $st->fetch(\PDO::FETCH_NUM), $st->getColumnMeta(0)]);

            $st = $t->call('statement without binary protocol', fn () => $db->prepare("PREPARE pdo_diff_s FROM 'SELECT ? AS v'"));
            $t->call('its emulation', fn () => $st->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
            $t->call('execute it', fn () => [$st->execute(), $st->columnCount(), $st->rowCount()]);
            $t->call('EXECUTE USING', fn () => $db->query("EXECUTE pdo_diff_s USING 'x'")->fetchAll(\PDO::FETCH_NUM));
            $t->call('DEALLOCATE', fn () => $db->exec('DEALLOCATE PREPARE pdo_diff_s'));
        }, self::emulate($emulate));
    }

    /** @dataProvider prepareModes */
    public function testBindingStyles(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $st = $t->call('named', fn () => $db->prepare('SELECT id, name FROM pdo_diff_people WHERE name = :name OR id = :id ORDER BY id'));
            $t->call('bindValue :name', fn () => $st->bindValue(':name', 'bob'));
            $t->call('bindValue id (no colon)', fn () => $st->bindValue('id', 3, \PDO::PARAM_INT));
            $t->call('execute', fn () => $st->execute());
            $t->call('fetchAll', fn () => $st->fetchAll(\PDO::FETCH_NUM));
            $t->call('execute array named', fn () => $st->execute([':name' => 'ann', 'id' => 4]));
            $t->call('fetchAll array named', fn () => $st->fetchAll(\PDO::FETCH_NUM));
            $t->call('bindValue 1 on named', fn () => $st->bindValue(1, 'x'));
            $t->call('bindValue :other', fn () => $st->bindValue(':other', 'x'));
            $t->call('execute after bad binds', fn () => $st->execute());

            $st = $t->call('positional', fn () => $db->prepare('SELECT id FROM pdo_diff_people WHERE name IN (?, ?) ORDER BY id'));
            $a = 'ann';
            $b = 'dee';
            $t->call('bindParam 1', fn () => $st->bindParam(1, $a));
            $t->call('bindParam 2', fn () => $st->bindParam(2, $b, \PDO::PARAM_STR, 10));
            $t->call('execute', fn () => $st->execute());
            $t->call('fetchAll', fn () => $st->fetchAll(\PDO::FETCH_COLUMN));
            $a = 'bob';
            $b = 'cid';
            $t->call('execute with changed vars', fn () => $st->execute());
            $t->call('fetchAll changed', fn () => $st->fetchAll(\PDO::FETCH_COLUMN));
            $t->call('bindParam :name on positional', fn () => $st->bindParam(':name', $a));
            $t->call('bindParam 0', fn () => $st->bindParam(0, $a));
            $t->call('bindParam ""', fn () => $st->bindParam('', $a));

            $st = $t->call('bindParam types', fn () => $db->prepare('SELECT ? AS a, ? AS b, ? AS c, ? AS d'));
            $i = 5;
            $s = 6;
            $bo = 1;
            $n = 'x';
            $t->call('bindParam INT', fn () => $st->bindParam(1, $i, \PDO::PARAM_INT));
            $t->call('bindParam STR', fn () => $st->bindParam(2, $s, \PDO::PARAM_STR));
            $t->call('bindParam BOOL', fn () => $st->bindParam(3, $bo, \PDO::PARAM_BOOL));
            $t->call('bindParam NULL', fn () => $st->bindParam(4, $n, \PDO::PARAM_NULL));
            $t->call('vars after bind', fn () => [$i, $s, $bo, $n]);
            $t->call('execute', fn () => $st->execute());
            $t->call('fetch', fn () => $st->fetch(\PDO::FETCH_NUM));
            $t->call('vars after execute', fn () => [$i, $s, $bo, $n]);
            $i = '7';
            $s = 8.5;
            $bo = 0;
            $n = null;
            $t->call('execute again', fn () => $st->execute());
            $t->call('fetch again', fn () => $st->fetch(\PDO::FETCH_NUM));
            $t->call('vars after execute again', fn () => [$i, $s, $bo, $n]);
            $t->call('execute(array) replaces bindings', fn () => [$st->execute([1, 2, 3, 4]), $st->fetch(\PDO::FETCH_NUM)]);
            $t->call('execute() keeps array bindings', fn () => [$st->execute(), $st->fetch(\PDO::FETCH_NUM)]);
            $t->call('execute(array) with string keys', fn () => $st->execute(['a' => 1, 'b' => 2, 'c' => 3, 'd' => 4]));
            $t->call('execute(array) with keys 1..4', fn () => $st->execute([1 => 1, 2 => 2, 3 => 3, 4 => 4]));

            $st = $t->call('repeated name', fn () => $db->prepare('SELECT :v AS a, :v AS b, :w AS c'));
            $t->call('execute repeated', fn () => $st->execute([':v' => 1, ':w' => 2]));
            $t->call('fetch repeated', fn () => $st->fetch(\PDO::FETCH_NUM));

            $st = $t->call('placeholders in strings and comments', fn () => $db->prepare("SELECT '?' AS a, \"?\" AS b, ':x' AS c, ? AS d /* ? :y */, -- ?\n 1 AS e"));
            $t->call('execute', fn () => $st->execute(['real']));
            $t->call('fetch', fn () => $st->fetch(\PDO::FETCH_NUM));

            $st = $t->call('placeholder names', fn () => $db->prepare('SELECT :a_1 AS a, :B2 AS b'));
            $t->call('execute', fn () => $st->execute(['a_1' => 'one', 'B2' => 'two']));
            $t->call('fetch', fn () => $st->fetch(\PDO::FETCH_NUM));

            $dump = static function (\PDOStatement $st): string {
                ob_start();
                try {
                    $st->debugDumpParams();
                } finally {
                    $out = (string) ob_get_clean();
                }

                return $out;
            };
            $t->call('debugDumpParams named', fn () => $dump($st));
            $st = $db->prepare('SELECT ? AS a, ? AS b');
            $t->call('debugDumpParams before execute', fn () => $dump($st));
            $one = 1;
            $st->bindParam(1, $one, \PDO::PARAM_INT);
            $st->bindValue(2, null, \PDO::PARAM_NULL);
            $t->call('debugDumpParams bound', fn () => $dump($st));
            $st->execute();
            $t->call('debugDumpParams executed', fn () => $dump($st));
            $st = $db->prepare('SELECT 1 AS a');
            $st->execute();
            $t->call('debugDumpParams no params', fn () => $dump($st));
        }, self::emulate($emulate));
    }

    /** @dataProvider prepareModes */
    public function testPrepareOptions(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $options = [
                'none' => [],
                'EMULATE_PREPARES on' => [\PDO::ATTR_EMULATE_PREPARES => true],
                'EMULATE_PREPARES off' => [\PDO::ATTR_EMULATE_PREPARES => false],
                'DIRECT_QUERY on' => [Pdo::MYSQL_ATTR_DIRECT_QUERY => true],
                'DIRECT_QUERY off' => [Pdo::MYSQL_ATTR_DIRECT_QUERY => false],
                'CURSOR_SCROLL' => [\PDO::ATTR_CURSOR => \PDO::CURSOR_SCROLL],
                'USE_BUFFERED_QUERY off' => [Pdo::MYSQL_ATTR_USE_BUFFERED_QUERY => false],
                'unknown' => [12345 => 1],
            ];
            foreach ($options as $name => $option) {
                $st = $t->call("prepare $name", fn () => $db->prepare('SELECT ? AS v, CAST(1.5 AS DECIMAL(3,1)) AS d, :x AS w', $option));
                $t->call("emulated $name", fn () => $st?->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
                $t->call("mixed placeholders $name", fn () => $st?->execute([1]));
                $st = $t->call("prepare positional $name", fn () => $db->prepare('SELECT ? AS v, CAST(1.5 AS DECIMAL(3,1)) AS d', $option));
                $t->call("emulated positional $name", fn () => $st?->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
                $t->call("execute $name", fn () => [$st?->execute([7]), $st?->fetch(\PDO::FETCH_NUM), $st?->getColumnMeta(1)]);
            }
            $t->call('handle attribute unchanged', fn () => $db->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
        }, self::emulate($emulate));
    }

    /** @dataProvider prepareModes */
    public function testWrongParameterCounts(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            foreach ([\PDO::ERRMODE_EXCEPTION, \PDO::ERRMODE_WARNING, \PDO::ERRMODE_SILENT] as $mode) {
                $db->setAttribute(\PDO::ATTR_ERRMODE, $mode);
                $st = $t->call("$mode prepare two", fn () => $db->prepare('SELECT ? AS a, ? AS b'));
                $t->call("$mode too few", fn () => $st->execute([1]));
                $t->call("$mode too few errorInfo", fn () => [$st->errorCode(), $st->errorInfo(), $db->errorCode()]);
                $t->call("$mode too many", fn () => $st->execute([1, 2, 3]));
                $t->call("$mode too many errorInfo", fn () => [$st->errorCode(), $st->errorInfo()]);
                $t->call("$mode named for positional", fn () => $st->execute([':a' => 1, ':b' => 2]));
                $t->call("$mode none bound", fn () => $st->execute());
                $t->call("$mode none bound errorInfo", fn () => [$st->errorCode(), $st->errorInfo()]);
                $t->call("$mode bindValue 3", fn () => $st->bindValue(3, 1));
                $t->call("$mode after bindValue 3", fn () => [$st->errorCode(), $st->errorInfo()]);
                $t->call("$mode one bound", fn () => [$st->bindValue(1, 1), $st->execute()]);
                $t->call("$mode one bound errorInfo", fn () => [$st->errorCode(), $st->errorInfo()]);
                $t->call("$mode both bound", fn () => [$st->bindValue(2, 2), $st->execute(), $st->fetch(\PDO::FETCH_NUM)]);

                $st = $t->call("$mode prepare named", fn () => $db->prepare('SELECT :a AS a, :b AS b'));
                $t->call("$mode named missing", fn () => $st->execute([':a' => 1]));
                $t->call("$mode named wrong", fn () => $st->execute([':a' => 1, ':c' => 2]));
                $t->call("$mode named extra", fn () => $st->execute([':a' => 1, ':b' => 2, ':c' => 3]));
                $t->call("$mode positional for named", fn () => $st->execute([1, 2]));
                $t->call("$mode named errorInfo", fn () => [$st->errorCode(), $st->errorInfo()]);

                $st = $t->call("$mode prepare mixed", fn () => $db->prepare('SELECT ? AS a, :b AS b'));
                $t->call("$mode execute mixed", fn () => $st?->execute([1, 2]));
                $t->call("$mode mixed errorInfo", fn () => [$db->errorCode(), $db->errorInfo()]);

                $st = $t->call("$mode prepare none", fn () => $db->prepare('SELECT 1 AS a'));
                $t->call("$mode execute with values", fn () => $st->execute([1]));
                $t->call("$mode none errorInfo", fn () => [$st->errorCode(), $st->errorInfo()]);
            }
        }, self::emulate($emulate));
    }

    // ---- errors ------------------------------------------------------------------------------

    /** @dataProvider prepareModesAndErrorModes */
    public function testServerErrors(bool $emulate, int $errorMode): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $t->call('create', fn () => $db->exec('CREATE TEMPORARY TABLE pdo_diff_keys (id INT PRIMARY KEY, u VARCHAR(5) UNIQUE)'));
            $t->call('insert', fn () => $db->exec("INSERT INTO pdo_diff_keys VALUES (1, 'a')"));
            $cases = [
                'syntax error' => 'SELEC 1',
                'syntax error with quotes' => "SELECT 'a' FRM x WHERE y = \"z\"",
                'unknown table' => 'SELECT * FROM pdo_diff_nope',
                'unknown column' => 'SELECT nope FROM pdo_diff_keys',
                'duplicate key' => "INSERT INTO pdo_diff_keys VALUES (1, 'b')",
                'duplicate unique' => "INSERT INTO pdo_diff_keys VALUES (2, 'a')",
                'null into not null' => 'INSERT INTO pdo_diff_keys VALUES (NULL, NULL)',
                'data too long' => "INSERT INTO pdo_diff_keys VALUES (3, 'toolong')",
                'signal 45000' => "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'custom failure', MYSQL_ERRNO = 1644",
                'division by zero is a warning' => 'SELECT 1/0 AS v',
                'no database function' => 'SELECT pdo_diff_nope()',
            ];
            foreach ($cases as $name => $sql) {
                // exec() of a statement that returns rows is a documented difference.
                if (!str_starts_with($sql, 'SELECT')) {
                    $t->call("exec: $name", fn () => $db->exec($sql));
                    $t->call("exec errorInfo: $name", fn () => [$db->errorCode(), $db->errorInfo()]);
                }
                $t->call("query: $name", fn () => $db->query($sql));
                $t->call("query errorInfo: $name", fn () => [$db->errorCode(), $db->errorInfo()]);
                $st = $t->call("prepare: $name", fn () => $db->prepare($sql));
                $t->call("prepare errorInfo: $name", fn () => [$db->errorCode(), $db->errorInfo()]);
                if ($st instanceof \PDOStatement) {
                    $t->call("statement errorCode before execute: $name", fn () => [$st->errorCode(), $st->errorInfo()]);
                    $t->call("execute: $name", fn () => $st->execute());
                    $t->call("statement errorInfo: $name", fn () => [$st->errorCode(), $st->errorInfo()]);
                    $t->call("handle errorInfo after execute: $name", fn () => [$db->errorCode(), $db->errorInfo()]);
                    $t->call("fetch after: $name", fn () => $st->fetchAll());
                }
                $t->call("exec ok after: $name", fn () => $db->exec('DO 1'));
                $t->call("errorInfo after success: $name", fn () => [$db->errorCode(), $db->errorInfo()]);
            }
            $st = $t->call('parameter error then', fn () => $db->prepare('INSERT INTO pdo_diff_keys VALUES (?, ?)'));
            $t->call('execute dup with params', fn () => $st->execute([1, 'z']));
            $t->call('execute ok with params', fn () => $st->execute([5, 'z']));
            $t->call('errorInfo after ok', fn () => [$st->errorCode(), $st->errorInfo()]);
            $t->call('quote does not reset', fn () => [$db->exec('SELEC'), $db->quote('x'), $db->errorCode()]);
            $t->call('inTransaction does not reset', fn () => [$db->exec('SELEC'), $db->inTransaction(), $db->errorCode()]);
            $t->call('errorInfo does not reset', fn () => [$db->exec('SELEC'), $db->errorInfo(), $db->errorCode()]);
            $t->call('getAttribute resets', fn () => [$db->exec('SELEC'), $db->getAttribute(\PDO::ATTR_ERRMODE), $db->errorCode()]);
            $t->call('lastInsertId resets', fn () => [$db->exec('SELEC'), $db->lastInsertId(), $db->errorCode()]);
        }, self::emulate($emulate) + [\PDO::ATTR_ERRMODE => $errorMode]);
    }

    // ---- transactions ------------------------------------------------------------------------

    /** @dataProvider transports */
    public function testTransactions(string $transport): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $count = static fn (): mixed => $db->query('SELECT COUNT(*) FROM pdo_diff_tx')->fetchColumn();
            $t->call('create', fn () => $db->exec('CREATE TEMPORARY TABLE pdo_diff_tx (id INT AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB'));
            $t->call('inTransaction', fn () => $db->inTransaction());
            $t->call('commit without transaction', fn () => $db->commit());
            $t->call('errorInfo after commit without', fn () => [$db->errorCode(), $db->errorInfo()]);
            $t->call('rollBack without transaction', fn () => $db->rollBack());
            $t->call('beginTransaction', fn () => $db->beginTransaction());
            $t->call('inTransaction in', fn () => $db->inTransaction());
            $t->call('nested beginTransaction', fn () => $db->beginTransaction());
            $t->call('still in', fn () => $db->inTransaction());
            $t->call('insert', fn () => $db->exec('INSERT INTO pdo_diff_tx VALUES (), ()'));
            $t->call('lastInsertId in transaction', fn () => $db->lastInsertId());
            $t->call('rollBack', fn () => $db->rollBack());
            $t->call('lastInsertId after rollBack', fn () => $db->lastInsertId());
            $t->call('count after rollBack', $count);
            $t->call('begin again', fn () => $db->beginTransaction());
            $t->call('insert again', fn () => $db->exec('INSERT INTO pdo_diff_tx VALUES ()'));
            $t->call('commit', fn () => $db->commit());
            $t->call('count after commit', $count);
            $t->call('inTransaction after commit', fn () => $db->inTransaction());
            $t->call('begin with SQL', fn () => $db->exec('START TRANSACTION'));
            $t->call('inTransaction after SQL begin', fn () => $db->inTransaction());
            $t->call('commit SQL-begun', fn () => $db->commit());
            $t->call('begin, then implicit commit', fn () => [$db->beginTransaction(), $db->exec('CREATE TEMPORARY TABLE pdo_diff_tx2 (a INT)'), $db->inTransaction()]);
            $ddl = 'pdo_diff_ddl_' . getmypid();
            $t->call('implicit commit by DDL', fn () => [$db->beginTransaction(), $db->exec("CREATE TABLE IF NOT EXISTS $ddl (a INT)"), $db->inTransaction()]);
            $t->call('commit after implicit commit', fn () => $db->commit());
            $t->call('drop', fn () => $db->exec("DROP TABLE IF EXISTS $ddl"));
            $t->call('autocommit off', fn () => $db->setAttribute(\PDO::ATTR_AUTOCOMMIT, false));
            $t->call('getAttribute autocommit', fn () => $db->getAttribute(\PDO::ATTR_AUTOCOMMIT));
            $t->call('inTransaction autocommit off', fn () => $db->inTransaction());
            $t->call('insert autocommit off', fn () => $db->exec('INSERT INTO pdo_diff_tx VALUES ()'));
            $t->call('inTransaction after insert', fn () => $db->inTransaction());
            $t->call('beginTransaction autocommit off', fn () => $db->beginTransaction());
            $t->call('rollBack autocommit off', fn () => $db->rollBack());
            $t->call('count autocommit off', $count);
            $t->call('beginTransaction autocommit off 2', fn () => $db->beginTransaction());
            $t->call('commit autocommit off', fn () => $db->commit());
            $t->call('autocommit attribute after commit', fn () => $db->getAttribute(\PDO::ATTR_AUTOCOMMIT));
            $t->call('autocommit on', fn () => $db->setAttribute(\PDO::ATTR_AUTOCOMMIT, true));
            $t->call('begin for errors', fn () => $db->beginTransaction());
            $t->call('error in transaction', fn () => $db->exec('SELEC'));
            $t->call('still in after error', fn () => $db->inTransaction());
            $t->call('rollBack after error', fn () => $db->rollBack());
            $t->call('errorInfo after rollBack', fn () => [$db->errorCode(), $db->errorInfo()]);
            $db->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_SILENT);
            $t->call('commit without transaction, silent', fn () => $db->commit());
            $t->call('nested begin, silent', fn () => [$db->beginTransaction(), $db->beginTransaction()]);
            $t->call('rollBack, silent', fn () => $db->rollBack());
        }, [], $transport);
    }

    // ---- result sets -------------------------------------------------------------------------

    /** @dataProvider prepareModes */
    public function testMultipleResultSets(bool $emulate): void
    {
        $procedure = self::$procedure;
        $this->differential(static function (\PDO $db, Trace $t) use ($procedure): void {
            $walk = static function (\PDOStatement $st, Trace $t, string $label): void {
                for ($set = 0; $set < 6; ++$set) {
                    $t->call("$label set $set columnCount", fn () => $st->columnCount());
                    $t->call("$label set $set rowCount", fn () => $st->rowCount());
                    $t->call("$label set $set meta", fn () => $st->getColumnMeta(0));
                    $t->call("$label set $set fetchAll", fn () => $st->fetchAll(\PDO::FETCH_ASSOC));
                    $more = $t->call("$label set $set nextRowset", fn () => $st->nextRowset());
                    if (!$more) {
                        break;
                    }
                }
                $t->call("$label fetch after last", fn () => $st->fetch());
                $t->call("$label nextRowset after last", fn () => $st->nextRowset());
                $t->call("$label errorInfo", fn () => $st->errorInfo());
            };
            $st = $t->call('query CALL', fn () => $db->query("CALL $procedure(5)"));
            $walk($st, $t, 'query CALL');
            $st = $t->call('prepare CALL', fn () => $db->prepare("CALL $procedure(?)"));
            $t->call('execute CALL', fn () => $st->execute([7]));
            $walk($st, $t, 'prepared CALL');
            $t->call('execute CALL again', fn () => $st->execute([8]));
            $t->call('fetch first set again', fn () => $st->fetchAll(\PDO::FETCH_NUM));
            $t->call('closeCursor in the middle', fn () => $st->closeCursor());
            $t->call('query after closeCursor', fn () => $db->query('SELECT 1 AS x')->fetchAll());

            $st = $t->call('multi statement', fn () => $db->query('SELECT 1 AS a; SELECT 2 AS b, 3 AS c; DO 1; SELECT 4 AS d'));
            if ($st instanceof \PDOStatement) {
                $walk($st, $t, 'multi');
            }
            $st = $t->call('prepare multi statement', fn () => $db->prepare('SELECT ? AS a; SELECT ? AS b'));
            $t->call('execute multi statement', fn () => $st?->execute([1, 2]));
            if ($st instanceof \PDOStatement) {
                // Read to the end: what pending result sets do to the next query is a documented difference.
                $walk($st, $t, 'prepared multi');
            }
            $t->call('nextRowset on single', fn () => $db->query('SELECT 1')->nextRowset());
            $t->call('nextRowset unexecuted', fn () => $db->prepare('SELECT 1')->nextRowset());
        }, self::emulate($emulate));
    }

    /** @dataProvider prepareModes */
    public function testCloseCursorAndReexecute(bool $emulate): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            self::people($db, $t);
            $st = $t->call('prepare', fn () => $db->prepare('SELECT id, name FROM pdo_diff_people WHERE id > ? ORDER BY id'));
            $t->call('closeCursor before execute', fn () => $st->closeCursor());
            $t->call('execute 0', fn () => $st->execute([0]));
            $t->call('fetch one', fn () => $st->fetch(\PDO::FETCH_NUM));
            $t->call('closeCursor', fn () => $st->closeCursor());
            $t->call('fetch after closeCursor', fn () => $st->fetch(\PDO::FETCH_NUM));
            $t->call('rowCount after closeCursor', fn () => $st->rowCount());
            $t->call('columnCount after closeCursor', fn () => $st->columnCount());
            $t->call('errorInfo after closeCursor', fn () => $st->errorInfo());
            $t->call('execute 1', fn () => $st->execute([1]));
            $t->call('fetchAll 1', fn () => $st->fetchAll(\PDO::FETCH_NUM));
            $t->call('execute 2 without closeCursor', fn () => $st->execute([2]));
            $t->call('fetch 2', fn () => $st->fetch(\PDO::FETCH_NUM));
            $t->call('execute 3 with unread rows', fn () => $st->execute([3]));
            $t->call('fetchAll 3', fn () => $st->fetchAll(\PDO::FETCH_NUM));
            $t->call('execute 9 (no rows)', fn () => $st->execute([9]));
            $t->call('fetch none', fn () => $st->fetch());
            $t->call('rowCount none', fn () => $st->rowCount());
            $t->call('other query while unread', fn () => [$st->execute([0]), $st->fetch(\PDO::FETCH_NUM), $db->query('SELECT 5')->fetchColumn(), $st->fetch(\PDO::FETCH_NUM)]);
            $t->call('closeCursor twice', fn () => [$st->closeCursor(), $st->closeCursor()]);
            $t->call('getColumnMeta after closeCursor', fn () => $st->getColumnMeta(0));
            $t->call('statement attribute', fn () => $st->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
            $t->call('statement attribute unknown', fn () => $st->getAttribute(\PDO::ATTR_CASE));
            $t->call('statement setAttribute', fn () => $st->setAttribute(\PDO::ATTR_CASE, 1));
            $t->call('statement errorInfo after attribute', fn () => $st->errorInfo());
            $t->call('queryString', fn () => $st->queryString);
        }, self::emulate($emulate));
    }

    /**
     * With MYSQL_ATTR_LOCAL_INFILE (without it, the error differs: DocumentedDifferencesTest).
     *
     * @dataProvider prepareModes
     */
    public function testLoadDataLocalInfile(bool $emulate): void
    {
        $file = tempnam(sys_get_temp_dir(), 'pdo-diff-');
        self::assertIsString($file);
        file_put_contents($file, "1\tone\n2\ttwo\n3\t\\N\n");
        try {
            $this->differential(static function (\PDO $db, Trace $t) use ($file): void {
                $t->call('attribute', fn () => $db->getAttribute(Pdo::MYSQL_ATTR_LOCAL_INFILE));
                $t->call('create', fn () => $db->exec('CREATE TEMPORARY TABLE pdo_diff_load (id INT, name VARCHAR(10))'));
                $t->call('exec LOAD DATA', fn () => $db->exec("LOAD DATA LOCAL INFILE " . $db->quote($file) . ' INTO TABLE pdo_diff_load'));
                $t->call('errorInfo', fn () => $db->errorInfo());
                $st = $t->call('prepare LOAD DATA', fn () => $db->prepare('LOAD DATA LOCAL INFILE ' . $db->quote($file) . ' INTO TABLE pdo_diff_load'));
                $t->call('execute LOAD DATA', fn () => [$st?->execute(), $st?->rowCount()]);
                $t->call('missing file', fn () => $db->exec("LOAD DATA LOCAL INFILE '/nonexistent/pdo-diff' INTO TABLE pdo_diff_load"));
                $t->call('rows', fn () => $db->query('SELECT * FROM pdo_diff_load ORDER BY id')->fetchAll(\PDO::FETCH_NUM));
            }, self::emulate($emulate) + [Pdo::MYSQL_ATTR_LOCAL_INFILE => true, \PDO::ATTR_ERRMODE => \PDO::ERRMODE_WARNING]);
        } finally {
            unlink($file);
        }
    }

    /** @dataProvider prepareModesAndErrorModes */
    public function testKilledConnection(bool $emulate, int $errorMode): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $st = $t->call('prepare before', fn () => $db->prepare('SELECT ? AS v'));
            $t->call('begin', fn () => $db->beginTransaction());
            $t->call('KILL own connection', fn () => $db->exec('KILL CONNECTION_ID()'));
            $t->call('errorInfo after KILL', fn () => [$db->errorCode(), $db->errorInfo()]);
            $t->call('query after', fn () => $db->query('SELECT 1'));
            $t->call('errorInfo after query', fn () => [$db->errorCode(), $db->errorInfo()]);
            $t->call('execute after', fn () => $st->execute([1]));
            $t->call('statement errorInfo', fn () => [$st->errorCode(), $st->errorInfo()]);
            $t->call('prepare after', fn () => $db->prepare('SELECT 2'));
            $t->call('exec after', fn () => $db->exec('DO 1'));
            $t->call('quote after', fn () => $db->quote("it's"));
            $t->call('inTransaction after', fn () => $db->inTransaction());
            $t->call('commit after', fn () => $db->commit());
            $t->call('rollBack after', fn () => $db->rollBack());
            $t->call('beginTransaction after', fn () => $db->beginTransaction());
            $t->call('lastInsertId after', fn () => $db->lastInsertId());
            $t->call('getAttribute after', fn () => $db->getAttribute(\PDO::ATTR_SERVER_VERSION) !== '');
        }, self::emulate($emulate) + [\PDO::ATTR_ERRMODE => $errorMode]);
    }

    /** @dataProvider prepareModesAndErrorModes */
    public function testErrorModesWithWarnings(bool $emulate, int $errorMode): void
    {
        $this->differential(static function (\PDO $db, Trace $t): void {
            $st = $t->call('prepare unknown table', fn () => $db->prepare('SELECT * FROM pdo_diff_nope WHERE id = ?'));
            $t->call('execute unknown table', fn () => $st?->execute([1]));
            $t->call('errorInfo', fn () => [$db->errorCode(), $db->errorInfo(), $st?->errorCode(), $st?->errorInfo()]);
            $t->call('query unknown table', fn () => $db->query('SELECT * FROM pdo_diff_nope'));
            $t->call('exec syntax', fn () => $db->exec('SELEC 1'));
            $t->call('fetch mode error', fn () => $db->query('SELECT 1 AS a')->fetchAll(\PDO::FETCH_KEY_PAIR));
            $t->call('unsupported attribute', fn () => $db->getAttribute(\PDO::ATTR_TIMEOUT));
            $t->call('commit without', fn () => $db->commit());
            $t->call('setAttribute ERRMODE bad', fn () => $db->setAttribute(\PDO::ATTR_ERRMODE, 5));
            $t->call('errmode still', fn () => $db->getAttribute(\PDO::ATTR_ERRMODE));
        }, self::emulate($emulate) + [\PDO::ATTR_ERRMODE => $errorMode]);
    }
}
