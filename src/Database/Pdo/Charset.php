<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * How escaping reads the bytes of a string in the connection character set: multibyte
 * characters are copied whole, so that a trailing byte that happens to be 0x5C ("\") or 0x27 (')
 * is never escaped on its own. The rules are those of the MySQL client libraries.
 */
enum Charset
{
    case SingleByte;
    case Utf8mb3;
    case Utf8mb4;
    case Big5;
    case Cp932;
    case Euckr;
    case Eucjpms;
    case Gb2312;
    case Gbk;
    case Gb18030;
    case Sjis;
    case Ujis;

    public static function fromName(string $name): self
    {
        return match (strtolower($name)) {
            'utf8mb4' => self::Utf8mb4,
            'utf8', 'utf8mb3' => self::Utf8mb3,
            'big5' => self::Big5,
            'cp932' => self::Cp932,
            'euckr' => self::Euckr,
            'eucjpms' => self::Eucjpms,
            'gb2312' => self::Gb2312,
            'gbk' => self::Gbk,
            'gb18030' => self::Gb18030,
            'sjis' => self::Sjis,
            'ujis' => self::Ujis,
            default => self::SingleByte,
        };
    }

    /** Length of the valid multibyte character at $i, or 0 if there is none there. */
    public function validMultibyteLength(string $s, int $i, int $end): int
    {
        $c = \ord($s[$i]);
        $available = $end - $i;
        $at = static fn (int $k): int => \ord($s[$i + $k]);

        switch ($this) {
            case self::SingleByte:
                return 0;
            case self::Utf8mb3:
            case self::Utf8mb4:
                if ($c < 0xC2) {
                    return 0;
                }
                if ($c < 0xE0) {
                    return $available >= 2 && ($at(1) ^ 0x80) < 0x40 ? 2 : 0;
                }
                if ($c < 0xF0) {
                    return $available >= 3 && ($at(1) ^ 0x80) < 0x40 && ($at(2) ^ 0x80) < 0x40
                        && ($c >= 0xE1 || $at(1) >= 0xA0) ? 3 : 0;
                }
                if ($this === self::Utf8mb3 || $c >= 0xF5) {
                    return 0;
                }

                return $available >= 4 && ($at(1) ^ 0x80) < 0x40 && ($at(2) ^ 0x80) < 0x40 && ($at(3) ^ 0x80) < 0x40
                    && ($c >= 0xF1 || $at(1) >= 0x90) && ($c <= 0xF3 || $at(1) <= 0x8F) ? 4 : 0;
            case self::Big5:
                return $c >= 0xA1 && $c <= 0xF9 && $available > 1
                    && (($at(1) >= 0x40 && $at(1) <= 0x7E) || ($at(1) >= 0xA1 && $at(1) <= 0xFE)) ? 2 : 0;
            case self::Cp932:
            case self::Sjis:
                return (($c >= 0x81 && $c <= 0x9F) || ($c >= 0xE0 && $c <= 0xFC)) && $available > 1
                    && (($at(1) >= 0x40 && $at(1) <= 0x7E) || ($at(1) >= 0x80 && $at(1) <= 0xFC)) ? 2 : 0;
            case self::Euckr:
                return $available > 1 && $c >= 0x80 && $at(1) >= 0xA1 && $at(1) <= 0xFE ? 2 : 0;
            case self::Eucjpms:
            case self::Ujis:
                if ($c < 0x80 || $available < 2) {
                    return 0;
                }
                if ($c >= 0xA1 && $c <= 0xFE && $at(1) >= 0xA1 && $at(1) <= 0xFE) {
                    return 2;
                }
                if ($c === 0x8E && $at(1) >= 0xA1 && $at(1) <= 0xDF) {
                    return 2;
                }
                if ($c === 0x8F && $available > 2 && $at(1) >= 0xA1 && $at(1) <= 0xFE && $at(2) >= 0xA1 && $at(2) <= 0xFE) {
                    return $this === self::Ujis ? 3 : 2;
                }

                return 0;
            case self::Gb2312:
                return $c >= 0xA1 && $c <= 0xF7 && $available > 1 && $at(1) >= 0xA1 && $at(1) <= 0xFE ? 2 : 0;
            case self::Gbk:
                return $c >= 0x81 && $c <= 0xFE && $available > 1
                    && (($at(1) >= 0x40 && $at(1) <= 0x7E) || ($at(1) >= 0x80 && $at(1) <= 0xFE)) ? 2 : 0;
            case self::Gb18030:
                if ($available <= 1 || $c < 0x81 || $c > 0xFE) {
                    return 0;
                }
                if (($at(1) >= 0x40 && $at(1) <= 0x7E) || ($at(1) >= 0x80 && $at(1) <= 0xFE)) {
                    return 2;
                }

                return $available > 3 && $at(1) >= 0x30 && $at(1) <= 0x39 && $at(2) >= 0x81 && $at(2) <= 0xFE
                    && $at(3) >= 0x30 && $at(3) <= 0x39 ? 4 : 0;
        }
    }

    /**
     * Whether a byte that does not start a valid multibyte character still announces one (a lead
     * byte without its trail): mysqlnd escapes such a byte with a backslash, except in UTF-8,
     * where it copies invalid sequences byte by byte.
     */
    public function isLeadByte(int $c): bool
    {
        return match ($this) {
            self::SingleByte, self::Gb18030, self::Utf8mb3, self::Utf8mb4 => false,
            self::Big5 => $c >= 0xA1 && $c <= 0xF9,
            self::Cp932, self::Sjis => ($c >= 0x81 && $c <= 0x9F) || ($c >= 0xE0 && $c <= 0xFC),
            self::Euckr => $c >= 0xA1 && $c <= 0xFE,
            self::Eucjpms, self::Ujis => ($c >= 0xA1 && $c <= 0xFE) || $c === 0x8E || $c === 0x8F,
            self::Gb2312 => $c >= 0xA1 && $c <= 0xF7,
            self::Gbk => $c >= 0x81 && $c <= 0xFE,
        };
    }
}
