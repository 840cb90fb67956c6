<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Mysql;

use Spindle\Database\Mysql\Blob;
use Spindle\Database\Mysql\Connection;

/** Every column type written and read back through both protocols. */
final class TypesTest extends MysqlTestCase
{
    /** @return array<string, array{string, mixed, int|float|string|null}> column => [SQL type, value to insert, value read back] */
    private static function columns(): array
    {
        return [
            'c_tiny' => ['TINYINT', -128, -128],
            'c_utiny' => ['TINYINT UNSIGNED', 255, 255],
            'c_bool' => ['BOOLEAN', true, 1],
            'c_short' => ['SMALLINT', -32768, -32768],
            'c_ushort' => ['SMALLINT UNSIGNED', 65535, 65535],
            'c_int24' => ['MEDIUMINT', -8388608, -8388608],
            'c_uint24' => ['MEDIUMINT UNSIGNED', 16777215, 16777215],
            'c_int' => ['INT', -2147483648, -2147483648],
            'c_uint' => ['INT UNSIGNED', 4294967295, 4294967295],
            'c_zerofill' => ['INT(6) UNSIGNED ZEROFILL', 42, 42],
            'c_bigint' => ['BIGINT', PHP_INT_MIN, PHP_INT_MIN],
            'c_ubigint' => ['BIGINT UNSIGNED', '18446744073709551615', '18446744073709551615'],
            'c_ubigint_small' => ['BIGINT UNSIGNED', PHP_INT_MAX, PHP_INT_MAX],
            'c_float' => ['FLOAT', 1.1, 1.1],
            'c_float2' => ['FLOAT(7,2)', 3.14159, 3.14],
            'c_double' => ['DOUBLE', -0.1, -0.1],
            'c_decimal' => ['DECIMAL(20,4)', '-1234567890123456.5', '-1234567890123456.5000'],
            'c_date' => ['DATE', '2024-02-29', '2024-02-29'],
            'c_datetime' => ['DATETIME', '2024-02-29 13:14:15', '2024-02-29 13:14:15'],
            'c_datetime3' => ['DATETIME(3)', '2024-02-29 13:14:15.123', '2024-02-29 13:14:15.123'],
            'c_datetime6' => ['DATETIME(6)', '1999-12-31 23:59:59.000001', '1999-12-31 23:59:59.000001'],
            'c_datetime6_whole' => ['DATETIME(6)', '2000-01-01 00:00:00', '2000-01-01 00:00:00.000000'],
            'c_timestamp' => ['TIMESTAMP NULL', '2038-01-19 03:14:07', '2038-01-19 03:14:07'],
            'c_timestamp6' => ['TIMESTAMP(6) NULL', '2001-02-03 04:05:06.5', '2001-02-03 04:05:06.500000'],
            'c_time' => ['TIME', '12:34:56', '12:34:56'],
            'c_time_neg' => ['TIME', '-838:59:59', '-838:59:59'],
            'c_time6' => ['TIME(6)', '-26:03:04.000005', '-26:03:04.000005'],
            'c_time_zero' => ['TIME', '00:00:00', '00:00:00'],
            'c_year' => ['YEAR', 2024, 2024],
            'c_bit' => ['BIT(10)', new Blob("\x02\x01"), "\x02\x01"],
            'c_char' => ['CHAR(5)', 'ab', 'ab'],
            'c_varchar' => ['VARCHAR(50)', "h\u{e9}llo \u{1F600}", "h\u{e9}llo \u{1F600}"],
            'c_binary' => ['BINARY(4)', new Blob("\x00\x01"), "\x00\x01\x00\x00"],
            'c_varbinary' => ['VARBINARY(10)', new Blob("\xFF\x00\xFE"), "\xFF\x00\xFE"],
            'c_tinyblob' => ['TINYBLOB', new Blob("\x00"), "\x00"],
            'c_blob' => ['BLOB', new Blob(random_bytes(1000) . "\0\xFF"), null],
            'c_mediumblob' => ['MEDIUMBLOB', str_repeat('m', 70000), str_repeat('m', 70000)],
            'c_longblob' => ['LONGBLOB', new Blob(''), ''],
            'c_tinytext' => ['TINYTEXT', 'tiny', 'tiny'],
            'c_text' => ['TEXT', "line\nbreak 'quoted' \"double\" \\ back", "line\nbreak 'quoted' \"double\" \\ back"],
            'c_longtext' => ['LONGTEXT', str_repeat('L', 300), str_repeat('L', 300)],
            'c_json' => ['JSON', '{"a": [1, 2, {"b": null}]}', '{"a": [1, 2, {"b": null}]}'],
            'c_enum' => ["ENUM('red','green')", 'green', 'green'],
            'c_set' => ["SET('a','b','c')", 'a,c', 'a,c'],
            'c_geometry' => ['POINT', null, null],
            'c_null' => ['INT NULL', null, null],
        ];
    }

    private function createTable(Connection $c): void
    {
        $c->query('DROP TABLE IF EXISTS spindle_types');
        $definitions = [];
        foreach (self::columns() as $name => [$type]) {
            $definitions[] = "$name $type";
        }
        $c->query('CREATE TABLE spindle_types (id INT PRIMARY KEY, ' . implode(', ', $definitions) . ') ENGINE=InnoDB');
    }

    public function testEveryTypeThroughBothProtocols(): void
    {
        $c = $this->connect();
        $this->createTable($c);
        $columns = self::columns();
        $names = array_keys($columns);
        // c_geometry is set from SQL, the others are parameters
        $insert = $c->prepare('INSERT INTO spindle_types (id, ' . implode(', ', array_diff($names, ['c_geometry'])) . ', c_geometry) VALUES (?, '
            . implode(', ', array_fill(0, \count($names) - 1, '?')) . ", ST_GeomFromText('POINT(1 2)'))");
        $params = [1];
        foreach ($columns as $name => $column) {
            if ($name !== 'c_geometry') {
                $params[] = $column[1];
            }
        }
        $result = $c->execute($insert, $params);
        self::assertSame(1, $result[0]->affectedRows);
        $c->query('INSERT INTO spindle_types (id) VALUES (2)');

        $select = 'SELECT ' . implode(', ', $names) . ', ST_AsText(c_geometry) AS wkt FROM spindle_types ORDER BY id';
        $text = $c->query($select)[0];
        $statement = $c->prepare($select);
        $binary = $c->execute($statement, [])[0];
        $c->closeStatement($statement);

        self::assertSame(array_merge($names, ['wkt']), array_map(static fn ($col) => $col->name, $text->columns));
        self::assertCount(2, $text->rows);
        self::assertCount(2, $binary->rows);
        foreach ($names as $i => $name) {
            $expected = $columns[$name][2];
            if ($name === 'c_blob') {
                $blob = $columns[$name][1];
                self::assertInstanceOf(Blob::class, $blob);
                $expected = $blob->bytes;
            }
            if ($name === 'c_geometry') {
                self::assertIsString($text->rows[0][$i]);
                self::assertSame(25, \strlen($text->rows[0][$i]), 'POINT is 4 bytes SRID + 21 bytes WKB');
                self::assertSame($text->rows[0][$i], $binary->rows[0][$i], 'geometry, binary protocol');
                continue;
            }
            self::assertSame($expected, $text->rows[0][$i], "$name, text protocol");
            self::assertSame($expected, $binary->rows[0][$i], "$name, binary protocol");
            $defaultRowValue = $text->rows[1][$i];
            self::assertSame($defaultRowValue, $binary->rows[1][$i], "$name (defaults row): both protocols agree");
        }
        self::assertSame('POINT(1 2)', $text->rows[0][\count($names)]);
        self::assertSame('POINT(1 2)', $binary->rows[0][\count($names)]);
    }

    public function testLiteralsAndExpressionsAgreeAcrossProtocols(): void
    {
        $c = $this->connect();
        $sql = "SELECT 1, -1, 18446744073709551615, -9223372036854775808, 9223372036854775807, 1.5, 1e300, CAST(1.25 AS FLOAT),
            NULL, 'str', X'00FF', CAST('2024-01-02' AS DATE), CAST('2024-01-02 03:04:05.123456' AS DATETIME(6)),
            CAST('-100:00:00.25' AS TIME(2)), CAST(5 AS UNSIGNED), b'101', NOW() = NOW(), JSON_OBJECT('k', 1), 12345678901234567890.123";
        $text = $c->query($sql)[0]->rows[0];
        $binary = $c->execute($c->prepare($sql), [])[0]->rows[0];
        self::assertSame(
            [1, -1, '18446744073709551615', PHP_INT_MIN, PHP_INT_MAX, '1.5', 1.0E300, 1.25, null, 'str', "\x00\xFF", '2024-01-02',
                '2024-01-02 03:04:05.123456', '-100:00:00.25', 5, "\x05", 1, '{"k": 1}', '12345678901234567890.123'],
            $text,
        );
        self::assertSame($text, $binary);
    }

    public function testParameterTypes(): void
    {
        $c = $this->connect();
        $s = $c->prepare('SELECT ? IS NULL, ?, ?, ?, ?, ?, ?, ?');
        $row = $c->execute($s, [null, true, false, PHP_INT_MIN, -1.5, "\u{1F600}", new Blob("\x00\xFF"), '007'])[0]->rows[0];
        self::assertSame([1, 1, 0, PHP_INT_MIN, -1.5, "\u{1F600}", "\x00\xFF", '007'], $row);
    }

    public function testAffectedRowsAndInsertId(): void
    {
        $c = $this->connect();
        $c->query('CREATE TEMPORARY TABLE t_auto (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY, v INT)');
        $r = $c->query('INSERT INTO t_auto (v) VALUES (1), (2), (3)')[0];
        self::assertSame(3, $r->affectedRows);
        self::assertSame(1, $r->lastInsertId);
        self::assertStringContainsString('Records: 3', $r->info);
        $r = $c->execute($c->prepare('UPDATE t_auto SET v = v + 1 WHERE id > ?'), [1])[0];
        self::assertSame(2, $r->affectedRows);
        $c->query('INSERT INTO t_auto (id, v) VALUES (9223372036854775807, 0)');
        self::assertSame('9223372036854775808', $c->query('INSERT INTO t_auto (v) VALUES (9)')[0]->lastInsertId);
    }
}
