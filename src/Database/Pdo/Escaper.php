<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * mysql_real_escape_string() for the connection character set: NUL, LF, CR, backslash, both
 * quotes and Ctrl-Z get a backslash (as \0 \n \r \\ \' \" \Z); with the server in
 * NO_BACKSLASH_ESCAPES mode only the single quote is doubled. Multibyte characters are copied
 * whole; outside UTF-8, a lead byte without a valid trail gets a backslash, as mysqlnd does.
 */
final class Escaper
{
    private const BACKSLASH = [
        "\0" => '\\0',
        "\n" => '\\n',
        "\r" => '\\r',
        '\\' => '\\\\',
        "'" => "\\'",
        '"' => '\\"',
        "\x1A" => '\\Z',
    ];

    public function __construct(public readonly Charset $charset)
    {
    }

    public function escape(string $value, bool $noBackslashEscapes): string
    {
        if ($this->copiesBytewise($value)) {
            return $noBackslashEscapes ? str_replace("'", "''", $value) : strtr($value, self::BACKSLASH);
        }

        $out = '';
        $end = \strlen($value);
        for ($i = 0; $i < $end; ++$i) {
            $length = $this->charset->validMultibyteLength($value, $i, $end);
            if ($length > 0) {
                $out .= substr($value, $i, $length);
                $i += $length - 1;
                continue;
            }
            $char = $value[$i];
            if ($noBackslashEscapes) {
                $out .= $char === "'" ? "''" : $char;
            } elseif ($this->charset->isLeadByte(\ord($char))) {
                $out .= '\\' . $char;
            } else {
                $out .= self::BACKSLASH[$char] ?? $char;
            }
        }

        return $out;
    }

    /** True when escaping byte by byte gives the same result as the character-aware walk. */
    private function copiesBytewise(string $value): bool
    {
        // In UTF-8 no byte from 0x80 up is ever special, valid or not.
        return $this->charset === Charset::SingleByte || $this->charset === Charset::Utf8mb4
            || $this->charset === Charset::Utf8mb3 || !preg_match('/[\x80-\xFF]/', $value);
    }
}
