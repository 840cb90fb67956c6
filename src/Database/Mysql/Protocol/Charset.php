<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/**
 * The collation id sent in the handshake, from the configured charset and collation. A
 * collation the handshake byte cannot name (unknown here, or numbered above 255) is set after
 * authentication with SET NAMES.
 */
final class Charset
{
    /** Default collation id of each character set. */
    private const CHARSETS = [
        'big5' => 1,
        'latin2' => 9,
        'ascii' => 11,
        'ujis' => 12,
        'sjis' => 13,
        'hebrew' => 16,
        'euckr' => 19,
        'gb2312' => 24,
        'greek' => 25,
        'cp1250' => 26,
        'gbk' => 28,
        'latin5' => 30,
        'utf8' => 33,
        'utf8mb3' => 33,
        'ucs2' => 35,
        'cp866' => 36,
        'latin7' => 41,
        'utf8mb4' => 45,
        'cp1251' => 51,
        'utf16' => 54,
        'cp1256' => 57,
        'cp1257' => 59,
        'utf32' => 60,
        'binary' => 63,
        'latin1' => 8,
        'cp850' => 4,
        'koi8r' => 7,
        'koi8u' => 22,
        'cp932' => 95,
        'eucjpms' => 97,
        'gb18030' => 248,
    ];

    /** Collations whose id fits the handshake byte. */
    private const COLLATIONS = [
        'latin1_swedish_ci' => 8,
        'latin1_bin' => 47,
        'latin1_general_ci' => 48,
        'latin1_general_cs' => 49,
        'latin1_german2_ci' => 31,
        'latin1_german1_ci' => 5,
        'latin1_danish_ci' => 15,
        'latin1_spanish_ci' => 94,
        'ascii_general_ci' => 11,
        'ascii_bin' => 65,
        'binary' => 63,
        'utf8_general_ci' => 33,
        'utf8mb3_general_ci' => 33,
        'utf8_bin' => 83,
        'utf8mb3_bin' => 83,
        'utf8_unicode_ci' => 192,
        'utf8mb3_unicode_ci' => 192,
        'utf8_general_mysql500_ci' => 223,
        'utf8mb4_general_ci' => 45,
        'utf8mb4_bin' => 46,
        'utf8mb4_unicode_ci' => 224,
        'utf8mb4_icelandic_ci' => 225,
        'utf8mb4_latvian_ci' => 226,
        'utf8mb4_romanian_ci' => 227,
        'utf8mb4_slovenian_ci' => 228,
        'utf8mb4_polish_ci' => 229,
        'utf8mb4_estonian_ci' => 230,
        'utf8mb4_spanish_ci' => 231,
        'utf8mb4_swedish_ci' => 232,
        'utf8mb4_turkish_ci' => 233,
        'utf8mb4_czech_ci' => 234,
        'utf8mb4_danish_ci' => 235,
        'utf8mb4_lithuanian_ci' => 236,
        'utf8mb4_slovak_ci' => 237,
        'utf8mb4_spanish2_ci' => 238,
        'utf8mb4_roman_ci' => 239,
        'utf8mb4_persian_ci' => 240,
        'utf8mb4_esperanto_ci' => 241,
        'utf8mb4_hungarian_ci' => 242,
        'utf8mb4_sinhala_ci' => 243,
        'utf8mb4_german2_ci' => 244,
        'utf8mb4_unicode_520_ci' => 246,
        'utf8mb4_vietnamese_ci' => 247,
        'utf8mb4_0900_ai_ci' => 255,
    ];

    /**
     * @param int $id the collation id for the handshake
     * @param string|null $setNames the SET NAMES statement to run after connecting, if needed
     */
    private function __construct(
        public readonly int $id,
        public readonly ?string $setNames,
    ) {
    }

    /** @throws MysqlException 2019 for an unknown charset or a malformed name */
    public static function resolve(string $charset, ?string $collation = null): self
    {
        $charset = strtolower($charset);
        if (!isset(self::CHARSETS[$charset])) {
            throw new MysqlException(sprintf("Can't initialize character set %s", $charset), Errors::CANT_READ_CHARSET);
        }
        if ($collation === null || $collation === '') {
            return new self(self::CHARSETS[$charset], null);
        }
        $collation = strtolower($collation);
        if (preg_match('/^[a-z0-9_]+$/D', $collation) !== 1) {
            throw new MysqlException(sprintf("Can't initialize collation %s", $collation), Errors::CANT_READ_CHARSET);
        }
        $id = self::COLLATIONS[$collation] ?? null;
        if ($id !== null) {
            return new self($id, null);
        }

        return new self(self::CHARSETS[$charset], sprintf('SET NAMES %s COLLATE %s', $charset, $collation));
    }
}
