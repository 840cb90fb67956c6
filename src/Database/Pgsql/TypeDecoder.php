<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

/**
 * Turns a column value, text or binary, into a PHP value: int2/int4/int8/oid as int, float4/float8
 * as float, bool as bool, bytea as its bytes, everything else (numeric, dates and times, json,
 * uuid, arrays, …) as the string PostgreSQL's text output gives. Binary values of those types are
 * rendered to the same text (timestamptz in UTC).
 */
final class TypeDecoder
{
    public const BOOL = 16;
    public const BYTEA = 17;
    public const CHAR = 18;
    public const NAME = 19;
    public const INT8 = 20;
    public const INT2 = 21;
    public const INT4 = 23;
    public const TEXT = 25;
    public const OID = 26;
    public const JSON = 114;
    public const XML = 142;
    public const FLOAT4 = 700;
    public const FLOAT8 = 701;
    public const BPCHAR = 1042;
    public const VARCHAR = 1043;
    public const DATE = 1082;
    public const TIME = 1083;
    public const TIMESTAMP = 1114;
    public const TIMESTAMPTZ = 1184;
    public const NUMERIC = 1700;
    public const UUID = 2950;
    public const JSONB = 3802;

    /** Array type oid => element type oid, for the binary arrays this class renders. */
    private const ARRAYS = [
        1000 => self::BOOL, 1001 => self::BYTEA, 1005 => self::INT2, 1007 => self::INT4, 1016 => self::INT8,
        1009 => self::TEXT, 1015 => self::VARCHAR, 1014 => self::BPCHAR, 1021 => self::FLOAT4, 1022 => self::FLOAT8,
        1231 => self::NUMERIC, 1182 => self::DATE, 1115 => self::TIMESTAMP, 1185 => self::TIMESTAMPTZ,
        2951 => self::UUID, 199 => self::JSON, 3807 => self::JSONB, 1028 => self::OID, 1003 => self::NAME,
    ];

    private const POSTGRES_EPOCH = 946684800; // 2000-01-01 00:00:00 UTC

    private function __construct()
    {
    }

    public static function decode(int $oid, int $format, string $value): int|float|bool|string
    {
        return $format === 1 ? self::binary($oid, $value) : self::text($oid, $value);
    }

    public static function text(int $oid, string $value): int|float|bool|string
    {
        return match ($oid) {
            self::INT2, self::INT4, self::INT8, self::OID => (int) $value,
            self::FLOAT4, self::FLOAT8 => self::float($value),
            self::BOOL => $value === 't',
            self::BYTEA => self::bytea($value),
            default => $value,
        };
    }

    /** A bytea in text output: hex ("\x0a0b") or the old escape format. */
    public static function bytea(string $value): string
    {
        if (str_starts_with($value, '\\x')) {
            $bytes = hex2bin(substr($value, 2));

            return $bytes === false ? $value : $bytes;
        }

        return stripcslashes(preg_replace('/\\\\(?![0-7]{3}|\\\\)/', '\\\\\\\\', $value) ?? $value);
    }

    private static function float(string $value): float
    {
        return match ($value) {
            'NaN' => NAN,
            'Infinity' => INF,
            '-Infinity' => -INF,
            default => (float) $value,
        };
    }

    public static function binary(int $oid, string $value): int|float|bool|string
    {
        $length = \strlen($value);
        switch ($oid) {
            case self::INT2:
                self::expect($length, 2, 'int2');
                $n = (\ord($value[0]) << 8) | \ord($value[1]);

                return $n >= 0x8000 ? $n - 0x10000 : $n;
            case self::INT4:
                self::expect($length, 4, 'int4');
                $n = self::uint32($value, 0);

                return $n >= 0x80000000 ? $n - 0x100000000 : $n;
            case self::OID:
                self::expect($length, 4, 'oid');

                return self::uint32($value, 0);
            case self::INT8:
                self::expect($length, 8, 'int8');

                return self::int64($value, 0);
            case self::FLOAT4:
                self::expect($length, 4, 'float4');

                return (float) unpack('G', $value)[1]; // @phpstan-ignore offsetAccess.nonOffsetAccessible
            case self::FLOAT8:
                self::expect($length, 8, 'float8');

                return (float) unpack('E', $value)[1]; // @phpstan-ignore offsetAccess.nonOffsetAccessible
            case self::BOOL:
                self::expect($length, 1, 'bool');

                return $value !== "\0";
            case self::JSONB:
                if ($length < 1 || $value[0] !== "\1") {
                    throw new PgsqlException('Unsupported jsonb binary version', '08P01');
                }

                return substr($value, 1);
            case self::UUID:
                self::expect($length, 16, 'uuid');
                $hex = bin2hex($value);

                return substr($hex, 0, 8) . '-' . substr($hex, 8, 4) . '-' . substr($hex, 12, 4) . '-' . substr($hex, 16, 4) . '-' . substr($hex, 20);
            case self::DATE:
                self::expect($length, 4, 'date');

                return self::date(self::uint32($value, 0));
            case self::TIME:
                self::expect($length, 8, 'time');

                return self::time(self::int64($value, 0));
            case self::TIMESTAMP:
            case self::TIMESTAMPTZ:
                self::expect($length, 8, 'timestamp');

                return self::timestamp(self::int64($value, 0), $oid === self::TIMESTAMPTZ);
            case self::NUMERIC:
                return self::numeric($value);
        }
        if (isset(self::ARRAYS[$oid])) {
            return self::array($value, self::ARRAYS[$oid]);
        }

        // bytea, text, varchar, bpchar, name, char, json, xml: the bytes are the value.
        return $value;
    }

    private static function expect(int $length, int $expected, string $type): void
    {
        if ($length !== $expected) {
            throw new PgsqlException(sprintf('Malformed binary %s value (%d bytes)', $type, $length), '08P01');
        }
    }

    private static function uint32(string $bytes, int $at): int
    {
        return (\ord($bytes[$at]) << 24) | (\ord($bytes[$at + 1]) << 16) | (\ord($bytes[$at + 2]) << 8) | \ord($bytes[$at + 3]);
    }

    private static function int64(string $bytes, int $at): int
    {
        $high = self::uint32($bytes, $at);
        $low = self::uint32($bytes, $at + 4);
        if ($high >= 0x80000000) {
            $high -= 0x100000000;
        }

        return ($high << 32) | $low;
    }

    private static function date(int $days): string
    {
        if ($days === 0x7FFFFFFF) {
            return 'infinity';
        }
        if ($days === 0x80000000) {
            return '-infinity';
        }
        if ($days >= 0x80000000) {
            $days -= 0x100000000;
        }

        return gmdate('Y-m-d', self::POSTGRES_EPOCH + $days * 86400);
    }

    private static function time(int $micros): string
    {
        $seconds = intdiv($micros, 1_000_000);
        $fraction = $micros % 1_000_000;

        return sprintf('%02d:%02d:%02d', intdiv($seconds, 3600), intdiv($seconds, 60) % 60, $seconds % 60) . self::fraction($fraction);
    }

    private static function timestamp(int $micros, bool $withZone): string
    {
        if ($micros === PHP_INT_MAX) {
            return 'infinity';
        }
        if ($micros === PHP_INT_MIN) {
            return '-infinity';
        }
        $seconds = intdiv($micros, 1_000_000);
        $fraction = $micros % 1_000_000;
        if ($fraction < 0) {
            --$seconds;
            $fraction += 1_000_000;
        }

        return gmdate('Y-m-d H:i:s', self::POSTGRES_EPOCH + $seconds) . self::fraction($fraction) . ($withZone ? '+00' : '');
    }

    private static function fraction(int $micros): string
    {
        return $micros === 0 ? '' : '.' . rtrim(sprintf('%06d', $micros), '0');
    }

    private static function numeric(string $value): string
    {
        if (\strlen($value) < 8) {
            throw new PgsqlException('Malformed binary numeric value', '08P01');
        }
        $ndigits = (\ord($value[0]) << 8) | \ord($value[1]);
        $weight = (\ord($value[2]) << 8) | \ord($value[3]);
        if ($weight >= 0x8000) {
            $weight -= 0x10000;
        }
        $sign = (\ord($value[4]) << 8) | \ord($value[5]);
        $dscale = (\ord($value[6]) << 8) | \ord($value[7]);
        if (\strlen($value) !== 8 + 2 * $ndigits) {
            throw new PgsqlException('Malformed binary numeric value', '08P01');
        }
        $special = match ($sign) {
            0xC000 => 'NaN',
            0xD000 => 'Infinity',
            0xF000 => '-Infinity',
            default => null,
        };
        if ($special !== null) {
            return $special;
        }
        $digits = [];
        for ($i = 0; $i < $ndigits; ++$i) {
            $digits[] = (\ord($value[8 + 2 * $i]) << 8) | \ord($value[9 + 2 * $i]);
        }
        $integer = '';
        for ($i = 0; $i <= $weight; ++$i) {
            $digit = $digits[$i] ?? 0;
            $integer .= $integer === '' ? (string) $digit : sprintf('%04d', $digit);
        }
        if ($integer === '' || ltrim($integer, '0') === '') {
            $integer = '0';
        }
        $fraction = '';
        if ($dscale > 0) {
            for ($i = $weight + 1; \strlen($fraction) < $dscale; ++$i) {
                $fraction .= sprintf('%04d', $i >= 0 ? ($digits[$i] ?? 0) : 0);
            }
            $fraction = '.' . substr($fraction, 0, $dscale);
        }

        return ($sign === 0x4000 ? '-' : '') . $integer . $fraction;
    }

    /** A binary array rendered as PostgreSQL's text output ("{1,2,NULL}", "{{a,b},{c,d}}"). */
    private static function array(string $value, int $elementOid): string
    {
        if (\strlen($value) < 12) {
            throw new PgsqlException('Malformed binary array value', '08P01');
        }
        $dimensions = self::uint32($value, 0);
        if ($dimensions === 0) {
            return '{}';
        }
        if ($dimensions > 6 || \strlen($value) < 12 + 8 * $dimensions) {
            throw new PgsqlException('Malformed binary array value', '08P01');
        }
        $sizes = [];
        $bounds = '';
        for ($d = 0; $d < $dimensions; ++$d) {
            $sizes[] = self::uint32($value, 12 + 8 * $d);
            $lower = self::uint32($value, 16 + 8 * $d);
            if ($lower !== 1) {
                $bounds .= sprintf('[%d:%d]', $lower, $lower + $sizes[$d] - 1);
            }
        }
        $at = 12 + 8 * $dimensions;
        $elements = [];
        $total = array_product($sizes);
        for ($i = 0; $i < $total; ++$i) {
            if ($at + 4 > \strlen($value)) {
                throw new PgsqlException('Malformed binary array value', '08P01');
            }
            $size = self::uint32($value, $at);
            $at += 4;
            if ($size === 0xFFFFFFFF) {
                $elements[] = 'NULL';
                continue;
            }
            $element = self::binary($elementOid, substr($value, $at, $size));
            $at += $size;
            $elements[] = self::arrayElement($element, $elementOid);
        }

        return ($bounds === '' ? '' : $bounds . '=') . self::nest($elements, $sizes);
    }

    private static function arrayElement(int|float|bool|string $element, int $oid): string
    {
        if (\is_bool($element)) {
            return $element ? 't' : 'f';
        }
        if (\is_int($element)) {
            return (string) $element;
        }
        if (\is_float($element)) {
            return is_nan($element) ? 'NaN' : (is_infinite($element) ? ($element > 0 ? 'Infinity' : '-Infinity') : (string) $element);
        }
        if ($oid === self::BYTEA) {
            $element = '\\x' . bin2hex($element);
        }
        if ($element === '' || strcasecmp($element, 'NULL') === 0 || strpbrk($element, "{},\"\\ \t\n\r\x0B\f") !== false) {
            return '"' . addcslashes($element, '"\\') . '"';
        }

        return $element;
    }

    /**
     * @param list<string> $elements
     * @param list<int>    $sizes
     */
    private static function nest(array $elements, array $sizes): string
    {
        if (\count($sizes) === 1) {
            return '{' . implode(',', $elements) . '}';
        }
        $inner = \array_slice($sizes, 1);
        $chunk = (int) array_product($inner);
        $parts = [];
        foreach (array_chunk($elements, max(1, $chunk)) as $part) {
            $parts[] = self::nest($part, $inner);
        }

        return '{' . implode(',', $parts) . '}';
    }
}
