<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** Column and parameter types on the wire (MYSQL_TYPE_*). */
enum ColumnType: int
{
    case Decimal = 0x00;
    case Tiny = 0x01;
    case Short = 0x02;
    case Long = 0x03;
    case Float = 0x04;
    case Double = 0x05;
    case Null = 0x06;
    case Timestamp = 0x07;
    case LongLong = 0x08;
    case Int24 = 0x09;
    case Date = 0x0A;
    case Time = 0x0B;
    case DateTime = 0x0C;
    case Year = 0x0D;
    case NewDate = 0x0E;
    case VarChar = 0x0F;
    case Bit = 0x10;
    case Timestamp2 = 0x11;
    case DateTime2 = 0x12;
    case Time2 = 0x13;
    case Vector = 0xF2;
    case Json = 0xF5;
    case NewDecimal = 0xF6;
    case Enum = 0xF7;
    case Set = 0xF8;
    case TinyBlob = 0xF9;
    case MediumBlob = 0xFA;
    case LongBlob = 0xFB;
    case Blob = 0xFC;
    case VarString = 0xFD;
    case String = 0xFE;
    case Geometry = 0xFF;

    /** Integer types that PHP's mysqlnd turns into int (YEAR included). */
    public function isInteger(): bool
    {
        return match ($this) {
            self::Tiny, self::Short, self::Int24, self::Long, self::LongLong, self::Year => true,
            default => false,
        };
    }

    public function isFloat(): bool
    {
        return $this === self::Float || $this === self::Double;
    }
}
