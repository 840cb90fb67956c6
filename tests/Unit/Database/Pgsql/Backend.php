<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pgsql;

/** Builds backend messages as a PostgreSQL server sends them (for the codec's tests). */
final class Backend
{
    public static function message(string $type, string $body): string
    {
        return $type . pack('N', \strlen($body) + 4) . $body;
    }

    public static function auth(int $code, string $data = ''): string
    {
        return self::message('R', pack('N', $code) . $data);
    }

    public static function parameterStatus(string $name, string $value): string
    {
        return self::message('S', $name . "\0" . $value . "\0");
    }

    public static function keyData(int $pid, int $key): string
    {
        return self::message('K', pack('NN', $pid, $key));
    }

    public static function ready(string $status = 'I'): string
    {
        return self::message('Z', $status);
    }

    /** @param list<array{string, int}> $columns name and type oid */
    public static function rowDescription(array $columns, int $format = 0): string
    {
        $body = pack('n', \count($columns));
        foreach ($columns as [$name, $oid]) {
            $body .= $name . "\0" . pack('NnNnNn', 16384, 1, $oid, 4, 0xFFFFFFFF, $format);
        }

        return self::message('T', $body);
    }

    /** @param list<string|null> $values */
    public static function dataRow(array $values): string
    {
        $body = pack('n', \count($values));
        foreach ($values as $value) {
            $body .= $value === null ? "\xFF\xFF\xFF\xFF" : pack('N', \strlen($value)) . $value;
        }

        return self::message('D', $body);
    }

    public static function complete(string $tag): string
    {
        return self::message('C', $tag . "\0");
    }

    /** @param array<string, string> $fields */
    public static function error(array $fields, string $type = 'E'): string
    {
        $body = '';
        foreach ($fields as $code => $value) {
            $body .= $code . $value . "\0";
        }

        return self::message($type, $body . "\0");
    }
}
