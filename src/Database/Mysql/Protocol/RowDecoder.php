<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\MysqlException;

/**
 * Column definitions and rows of both protocols, decoded to PHP values the way PHP's mysqlnd
 * does (PHP 8.1+, native types): integers (YEAR included) as int, BIGINT UNSIGNED beyond
 * PHP_INT_MAX as a numeric string, FLOAT/DOUBLE as float, NULL as null, everything else as the
 * server's string; binary temporals formatted as the server formats them in text.
 * Deviation from mysqlnd: BIT stays the raw binary string in both protocols.
 */
final class RowDecoder
{
    /** A column "decimals" value at or above this means "not fixed". */
    private const NOT_FIXED_DEC = 31;

    public const TEXT_STRING = 0;
    public const TEXT_INTEGER = 1;
    public const TEXT_FLOAT = 2;
    public const TEXT_NULL = 3;

    /** binaryKind(): values read in place by binaryRowOfKinds(); BINARY_OTHER goes the careful way. */
    public const BINARY_STRING = 0;
    public const BINARY_LONG = 1;
    public const BINARY_LONG_UNSIGNED = 2;
    public const BINARY_LONGLONG = 3;
    public const BINARY_LONGLONG_UNSIGNED = 4;
    public const BINARY_DOUBLE = 5;
    public const BINARY_TINY = 6;
    public const BINARY_TINY_UNSIGNED = 7;
    public const BINARY_DATETIME = 8;
    public const BINARY_DATE = 9;
    public const BINARY_OTHER = 10;

    private function __construct()
    {
    }

    /** Protocol::ColumnDefinition41. @throws MysqlException 2027 */
    public static function columnDefinition(string $payload): ColumnDefinition
    {
        $b = new Buffer($payload);
        $catalog = $b->lenencString();
        $schema = $b->lenencString();
        $table = $b->lenencString();
        $orgTable = $b->lenencString();
        $name = $b->lenencString();
        $orgName = $b->lenencString();
        $fixedLength = $b->lenencInt();
        if ($fixedLength < 10) {
            throw Errors::malformed('column definition with a short fixed-length part');
        }
        $charset = $b->int2();
        $length = $b->int4();
        $type = $b->int1();
        $flags = $b->int2();
        $decimals = $b->int1();

        return new ColumnDefinition($catalog, $schema, $table, $orgTable, $name, $orgName, $charset, $length, $type, $flags, $decimals);
    }

    /**
     * How textRows() decodes a column's values: TEXT_STRING, TEXT_INTEGER, TEXT_FLOAT or
     * TEXT_NULL. A result computes this once per column, not once per value.
     */
    public static function textKind(ColumnDefinition $column): int
    {
        return match ($column->type) {
            ColumnType::Tiny->value, ColumnType::Short->value, ColumnType::Int24->value,
            ColumnType::Long->value, ColumnType::LongLong->value, ColumnType::Year->value => self::TEXT_INTEGER,
            ColumnType::Float->value, ColumnType::Double->value => self::TEXT_FLOAT,
            ColumnType::Null->value => self::TEXT_NULL,
            default => self::TEXT_STRING,
        };
    }

    /**
     * Protocol::TextResultsetRow.
     *
     * @param list<ColumnDefinition> $columns
     *
     * @return list<int|float|string|null>
     *
     * @throws MysqlException 2027
     */
    public static function textRow(string $payload, array $columns): array
    {
        return self::textRowOfKinds($payload, array_map(self::textKind(...), $columns));
    }

    /**
     * Protocol::TextResultsetRow with the columns given by their textKind(): one pass over the
     * payload, length-encoded strings read in place.
     *
     * @param list<int> $kinds
     *
     * @return list<int|float|string|null>
     *
     * @throws MysqlException 2027
     */
    public static function textRowOfKinds(string $p, array $kinds): array
    {
        $length = \strlen($p);
        $o = 0;
        $row = [];
        foreach ($kinds as $kind) {
            if ($o >= $length) {
                throw Errors::malformed(sprintf('text row ends before its %d columns', \count($kinds)));
            }
            $n = \ord($p[$o]);
            if ($n < 0xFB) {
                ++$o;
            } elseif ($n === 0xFB) {
                ++$o;
                $row[] = null;
                continue;
            } elseif ($n === 0xFC && $o + 3 <= $length) {
                $n = \ord($p[$o + 1]) | (\ord($p[$o + 2]) << 8);
                $o += 3;
            } elseif ($n === 0xFD && $o + 4 <= $length) {
                $n = \ord($p[$o + 1]) | (\ord($p[$o + 2]) << 8) | (\ord($p[$o + 3]) << 16);
                $o += 4;
            } elseif ($n === 0xFE && $o + 9 <= $length) {
                /** @var array{1: int} $v */
                $v = unpack('P', $p, $o + 1);
                $n = $v[1];
                $o += 9;
            } else {
                throw Errors::malformed(sprintf('invalid length-encoded string at offset %d of a %d-byte row', $o, $length));
            }
            if ($n < 0 || $n > $length - $o) {
                throw Errors::malformed(sprintf('needed %d byte(s) at offset %d of a %d-byte row', $n, $o, $length));
            }
            $value = $n === 0 ? '' : substr($p, $o, $n);
            $o += $n;
            if ($kind === self::TEXT_STRING) {
                $row[] = $value;
            } elseif ($kind === self::TEXT_INTEGER) {
                // The common case in one cast and compare; leading zeros, signs, big values: the careful way.
                $int = (int) $value;
                $row[] = $n < 19 && (string) $int === $value ? $int : self::integerText($value);
            } elseif ($kind === self::TEXT_FLOAT) {
                $row[] = is_numeric($value) ? (float) $value : $value;
            } else {
                $row[] = null;
            }
        }
        if ($o !== $length) {
            throw Errors::malformed('text row longer than its columns');
        }

        return $row;
    }

    /** A decimal integer string as int, or unchanged when it does not fit (or is not an integer). */
    private static function integerText(string $value): int|string
    {
        if (preg_match('/^-?[0-9]+$/D', $value) !== 1) {
            return $value;
        }
        $int = (int) $value;
        if (\strlen($value) < 19) {
            return $int;
        }
        $digits = ltrim(ltrim($value, '-'), '0');
        $back = ltrim((string) $int, '-');

        return $digits === $back || ($digits === '' && $int === 0) ? $int : $value;
    }

    /** How binaryRowOfKinds() reads a column's values (one of the BINARY_* constants). */
    public static function binaryKind(ColumnDefinition $column): int
    {
        $unsigned = ($column->flags & ColumnFlag::UNSIGNED) !== 0;

        return match ($column->type) {
            ColumnType::Tiny->value => $unsigned ? self::BINARY_TINY_UNSIGNED : self::BINARY_TINY,
            ColumnType::Long->value, ColumnType::Int24->value => $unsigned ? self::BINARY_LONG_UNSIGNED : self::BINARY_LONG,
            ColumnType::LongLong->value => $unsigned ? self::BINARY_LONGLONG_UNSIGNED : self::BINARY_LONGLONG,
            ColumnType::Double->value => self::BINARY_DOUBLE,
            ColumnType::DateTime->value, ColumnType::Timestamp->value, ColumnType::DateTime2->value,
            ColumnType::Timestamp2->value => $column->decimals === 0 || $column->decimals > 6 ? self::BINARY_DATETIME : self::BINARY_OTHER,
            ColumnType::Date->value, ColumnType::NewDate->value => self::BINARY_DATE,
            ColumnType::Decimal->value, ColumnType::NewDecimal->value, ColumnType::VarChar->value, ColumnType::Bit->value,
            ColumnType::Json->value, ColumnType::Enum->value, ColumnType::Set->value, ColumnType::TinyBlob->value,
            ColumnType::MediumBlob->value, ColumnType::LongBlob->value, ColumnType::Blob->value,
            ColumnType::VarString->value, ColumnType::String->value, ColumnType::Geometry->value => self::BINARY_STRING,
            default => self::BINARY_OTHER,
        };
    }

    /**
     * Protocol::BinaryResultsetRow: 0x00, the NULL bitmap (offset 2), the non-NULL values.
     *
     * @param list<ColumnDefinition> $columns
     *
     * @return list<int|float|string|null>
     *
     * @throws MysqlException 2027
     */
    public static function binaryRow(string $payload, array $columns): array
    {
        return self::binaryRowOfKinds($payload, $columns, array_map(self::binaryKind(...), $columns));
    }

    /**
     * binaryRow() with each column's binaryKind() computed once per result: integers, doubles
     * and strings are read in place, the rarer types through a Buffer.
     *
     * @param list<ColumnDefinition> $columns
     * @param list<int> $kinds
     *
     * @return list<int|float|string|null>
     *
     * @throws MysqlException 2027
     */
    public static function binaryRowOfKinds(string $p, array $columns, array $kinds): array
    {
        $length = \strlen($p);
        $o = 1 + intdiv(\count($kinds) + 9, 8);
        if ($length < $o || $p[0] !== "\x00") {
            throw Errors::malformed($length === 0 || $p[0] !== "\x00" ? 'binary row without 0x00 header' : 'binary row shorter than its NULL bitmap');
        }
        $row = [];
        foreach ($kinds as $i => $kind) {
            $bit = $i + 2;
            if ((\ord($p[1 + ($bit >> 3)]) >> ($bit & 7) & 1) === 1) {
                $row[] = null;
                continue;
            }
            switch ($kind) {
                case self::BINARY_STRING:
                    if ($o >= $length) {
                        throw Errors::malformed(sprintf('binary row ends before its %d columns', \count($kinds)));
                    }
                    $n = \ord($p[$o]);
                    if ($n < 0xFB) {
                        ++$o;
                    } elseif ($n === 0xFC && $o + 3 <= $length) {
                        $n = \ord($p[$o + 1]) | (\ord($p[$o + 2]) << 8);
                        $o += 3;
                    } elseif ($n === 0xFD && $o + 4 <= $length) {
                        $n = \ord($p[$o + 1]) | (\ord($p[$o + 2]) << 8) | (\ord($p[$o + 3]) << 16);
                        $o += 4;
                    } elseif ($n === 0xFE && $o + 9 <= $length) {
                        /** @var array{1: int} $v */
                        $v = unpack('P', $p, $o + 1);
                        $n = $v[1];
                        $o += 9;
                    } else {
                        throw Errors::malformed(sprintf('invalid length-encoded string at offset %d of a %d-byte row', $o, $length));
                    }
                    if ($n < 0 || $n > $length - $o) {
                        throw Errors::malformed(sprintf('needed %d byte(s) at offset %d of a %d-byte row', $n, $o, $length));
                    }
                    $row[] = $n === 0 ? '' : substr($p, $o, $n);
                    $o += $n;
                    break;
                case self::BINARY_LONG:
                case self::BINARY_LONG_UNSIGNED:
                    if ($o + 4 > $length) {
                        throw Errors::malformed(sprintf('needed 4 byte(s) at offset %d of a %d-byte row', $o, $length));
                    }
                    $v = \ord($p[$o]) | (\ord($p[$o + 1]) << 8) | (\ord($p[$o + 2]) << 16) | (\ord($p[$o + 3]) << 24);
                    $row[] = $kind === self::BINARY_LONG && $v >= 0x80000000 ? $v - 0x100000000 : $v;
                    $o += 4;
                    break;
                case self::BINARY_LONGLONG:
                case self::BINARY_LONGLONG_UNSIGNED:
                    if ($o + 8 > $length) {
                        throw Errors::malformed(sprintf('needed 8 byte(s) at offset %d of a %d-byte row', $o, $length));
                    }
                    $v = \ord($p[$o]) | (\ord($p[$o + 1]) << 8) | (\ord($p[$o + 2]) << 16) | (\ord($p[$o + 3]) << 24)
                        | (\ord($p[$o + 4]) << 32) | (\ord($p[$o + 5]) << 40) | (\ord($p[$o + 6]) << 48) | (\ord($p[$o + 7]) << 56);
                    $row[] = $kind === self::BINARY_LONGLONG_UNSIGNED && $v < 0 ? sprintf('%u', $v) : $v;
                    $o += 8;
                    break;
                case self::BINARY_DOUBLE:
                    if ($o + 8 > $length) {
                        throw Errors::malformed(sprintf('needed 8 byte(s) at offset %d of a %d-byte row', $o, $length));
                    }
                    /** @var array{1: float} $d */
                    $d = unpack('e', $p, $o);
                    $row[] = $d[1];
                    $o += 8;
                    break;
                case self::BINARY_TINY:
                case self::BINARY_TINY_UNSIGNED:
                    if ($o >= $length) {
                        throw Errors::malformed(sprintf('needed 1 byte(s) at offset %d of a %d-byte row', $o, $length));
                    }
                    $v = \ord($p[$o++]);
                    $row[] = $kind === self::BINARY_TINY && $v >= 0x80 ? $v - 0x100 : $v;
                    break;
                case self::BINARY_DATETIME:
                case self::BINARY_DATE:
                    $n = $o < $length ? \ord($p[$o]) : -1;
                    if (($n === 7 || $n === 4) && $o + 1 + $n <= $length) {
                        // The common lengths in place; 0 and 11 (microseconds) the careful way.
                        $year = \ord($p[$o + 1]) | (\ord($p[$o + 2]) << 8);
                        if ($kind === self::BINARY_DATE) {
                            $row[] = sprintf('%04d-%02d-%02d', $year, \ord($p[$o + 3]), \ord($p[$o + 4]));
                        } elseif ($n === 4) {
                            $row[] = sprintf('%04d-%02d-%02d 00:00:00', $year, \ord($p[$o + 3]), \ord($p[$o + 4]));
                        } else {
                            $row[] = sprintf(
                                '%04d-%02d-%02d %02d:%02d:%02d',
                                $year,
                                \ord($p[$o + 3]),
                                \ord($p[$o + 4]),
                                \ord($p[$o + 5]),
                                \ord($p[$o + 6]),
                                \ord($p[$o + 7]),
                            );
                        }
                        $o += 1 + $n;
                        break;
                    }
                    // no break
                default:
                    $b = new Buffer($p);
                    $b->skip($o);
                    $row[] = self::binaryValue($b, $columns[$i]);
                    $o = $b->offset();
            }
        }
        if ($o !== $length) {
            throw Errors::malformed('binary row longer than its columns');
        }

        return $row;
    }

    private static function binaryValue(Buffer $b, ColumnDefinition $column): int|float|string|null
    {
        $unsigned = ($column->flags & ColumnFlag::UNSIGNED) !== 0;

        return match (ColumnType::tryFrom($column->type)) {
            ColumnType::Tiny => self::signed($b->int1(), 8, $unsigned),
            ColumnType::Short, ColumnType::Year => self::signed($b->int2(), 16, $unsigned),
            ColumnType::Int24, ColumnType::Long => self::signed($b->int4(), 32, $unsigned),
            ColumnType::LongLong => $unsigned ? Buffer::unsigned64($b->int8()) : $b->int8(),
            ColumnType::Float => self::floatValue($b->float4(), $column->decimals),
            ColumnType::Double => $b->float8(),
            ColumnType::Null => null,
            ColumnType::Date, ColumnType::NewDate => self::dateTime($b, $column->decimals, false),
            ColumnType::DateTime, ColumnType::Timestamp, ColumnType::DateTime2, ColumnType::Timestamp2
                => self::dateTime($b, $column->decimals, true),
            ColumnType::Time, ColumnType::Time2 => self::time($b, $column->decimals),
            default => $b->lenencString(),
        };
    }

    private static function signed(int $value, int $bits, bool $unsigned): int
    {
        if (!$unsigned && $value >= 1 << ($bits - 1)) {
            return $value - (1 << $bits);
        }

        return $value;
    }

    /** FLOAT rounded as mysqlnd does: to the column's decimals, or to 6 significant digits. */
    private static function floatValue(float $value, int $decimals): float
    {
        if (!is_finite($value)) {
            return $value;
        }
        if ($decimals >= self::NOT_FIXED_DEC) {
            return (float) sprintf('%.6G', $value);
        }

        return (float) sprintf('%.' . $decimals . 'F', $value);
    }

    private static function fraction(int $micro, int $decimals): string
    {
        if ($decimals <= 0 || $decimals > 6) {
            return '';
        }

        return '.' . str_pad((string) intdiv($micro, 10 ** (6 - $decimals)), $decimals, '0', STR_PAD_LEFT);
    }

    private static function dateTime(Buffer $b, int $decimals, bool $withTime): string
    {
        $length = $b->int1();
        [$year, $month, $day, $hour, $minute, $second, $micro] = [0, 0, 0, 0, 0, 0, 0];
        if (!\in_array($length, [0, 4, 7, 11], true)) {
            throw Errors::malformed(sprintf('temporal value of %d bytes', $length));
        }
        if ($length >= 4) {
            $year = $b->int2();
            $month = $b->int1();
            $day = $b->int1();
        }
        if ($length >= 7) {
            $hour = $b->int1();
            $minute = $b->int1();
            $second = $b->int1();
        }
        if ($length === 11) {
            $micro = $b->int4();
        }
        $date = sprintf('%04d-%02d-%02d', $year, $month, $day);
        if (!$withTime) {
            return $date;
        }

        return sprintf('%s %02d:%02d:%02d', $date, $hour, $minute, $second) . self::fraction($micro, $decimals);
    }

    private static function time(Buffer $b, int $decimals): string
    {
        $length = $b->int1();
        if ($length !== 0 && $length !== 8 && $length !== 12) {
            throw Errors::malformed(sprintf('TIME value of %d bytes', $length));
        }
        [$negative, $days, $hour, $minute, $second, $micro] = [0, 0, 0, 0, 0, 0];
        if ($length >= 8) {
            $negative = $b->int1();
            $days = $b->int4();
            $hour = $b->int1();
            $minute = $b->int1();
            $second = $b->int1();
        }
        if ($length === 12) {
            $micro = $b->int4();
        }

        return sprintf('%s%02d:%02d:%02d', $negative !== 0 ? '-' : '', $days * 24 + $hour, $minute, $second)
            . self::fraction($micro, $decimals);
    }
}
