<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Pgsql\TypeDecoder;

/**
 * PDOStatement::getColumnMeta() for PostgreSQL, in pdo_pgsql's shape: pgsql:oid,
 * pgsql:table_oid, table (for a table column), native_type, pdo_type, name, len (the type's
 * size, -1 when variable) and precision (the type modifier). Names of types and tables the
 * server is asked for once per connection.
 *
 * @internal
 */
final class PgsqlColumnMeta
{
    /** The built-in types' names, so that common columns need no query. */
    private const TYPE_NAMES = [
        16 => 'bool', 17 => 'bytea', 18 => 'char', 19 => 'name', 20 => 'int8', 21 => 'int2', 23 => 'int4',
        25 => 'text', 26 => 'oid', 114 => 'json', 142 => 'xml', 700 => 'float4', 701 => 'float8',
        790 => 'money', 1042 => 'bpchar', 1043 => 'varchar', 1082 => 'date', 1083 => 'time',
        1114 => 'timestamp', 1184 => 'timestamptz', 1186 => 'interval', 1266 => 'timetz',
        1700 => 'numeric', 2950 => 'uuid', 3802 => 'jsonb', 1007 => '_int4', 1009 => '_text',
        1016 => '_int8', 1005 => '_int2', 1000 => '_bool', 1015 => '_varchar', 1022 => '_float8',
        869 => 'inet', 650 => 'cidr', 829 => 'macaddr', 2249 => 'record', 705 => 'unknown', 2278 => 'void',
    ];

    private function __construct()
    {
    }

    /**
     * @param ColumnDefinition $column as PgsqlSession fills it (type oid in $type, table oid in $charset)
     *
     * @return array<string, mixed>
     */
    public static function describe(Handle $handle, ColumnDefinition $column, string $name): array
    {
        $meta = ['pgsql:oid' => $column->type, 'pgsql:table_oid' => $column->charset];
        if ($column->charset !== 0) {
            $table = self::lookup($handle, 't' . $column->charset, 'SELECT relname FROM pg_class WHERE oid = ' . $column->charset);
            if ($table !== null) {
                $meta['table'] = $table;
            }
        }
        $type = self::TYPE_NAMES[$column->type]
            ?? self::lookup($handle, 'y' . $column->type, 'SELECT typname FROM pg_type WHERE oid = ' . $column->type);
        if ($type !== null) {
            $meta['native_type'] = $type;
        }
        $meta['pdo_type'] = match ($column->type) {
            TypeDecoder::INT2, TypeDecoder::INT4, TypeDecoder::INT8 => \PDO::PARAM_INT,
            TypeDecoder::BOOL => \PDO::PARAM_BOOL,
            // An oid is reported as a large object's.
            TypeDecoder::BYTEA, TypeDecoder::OID => \PDO::PARAM_LOB,
            default => \PDO::PARAM_STR,
        };
        $meta['name'] = $name;
        $meta['len'] = $column->length;
        $meta['precision'] = $column->decimals;

        return $meta;
    }

    private static function lookup(Handle $handle, string $key, string $sql): ?string
    {
        $link = $handle->connection;
        if (!$link instanceof PgsqlLink) {
            return null;
        }

        return $link->catalogName($key, static function () use ($handle, $sql): ?string {
            try {
                $value = $handle->query($sql)[0]->rows[0][0] ?? null;
            } catch (MysqlException) {
                $value = null;
            }

            return \is_string($value) ? $value : null;
        });
    }
}
