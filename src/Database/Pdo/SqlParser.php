<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * Finds "?" and ":name" placeholders in an SQL text the way MySQL reads it: nothing inside '…' or
 * "…" strings (backslash escapes and doubled quotes), `…` identifiers, / * … * / comments, and
 * "-- …" or "# …" comments up to the end of the line counts. In the PostgreSQL dialect "#" and
 * "`" are plain text (operators there), and each "??" is recorded: PDO sends it as "?". Two or more "?" in a row ("??") or
 * ":" in a row ("::") are plain text, and so is ":name" right after a letter or digit ("a:b").
 * An unterminated string, identifier or comment is not one: its opening character is plain text
 * and scanning goes on after it.
 */
final class SqlParser
{
    private const SPECIAL = ":?\"'`/#-";
    private const SPECIAL_PGSQL = ":?\"'/-";

    public static function parse(string $sql, Dialect $dialect = Dialect::Mysql): ParsedSql
    {
        $special = $dialect === Dialect::Pgsql ? self::SPECIAL_PGSQL : self::SPECIAL;
        $escapes = [];
        $length = \strlen($sql);
        $placeholders = [];
        $named = false;
        $positional = false;
        $i = strcspn($sql, $special);
        while ($i < $length) {
            $char = $sql[$i];
            switch ($char) {
                case '"':
                case "'":
                    $i = self::quotedEnd($sql, $i, $char, true) ?? $i + 1;
                    break;
                case '`':
                    $i = self::quotedEnd($sql, $i, '`', false) ?? $i + 1;
                    break;
                case ':':
                    if ($i + 1 < $length && $sql[$i + 1] === ':') {
                        $i += strspn($sql, ':', $i);
                        break;
                    }
                    $nameLength = strspn($sql, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_', $i + 1);
                    if ($nameLength === 0) {
                        ++$i;
                        break;
                    }
                    if ($i === 0 || !ctype_alnum($sql[$i - 1])) {
                        $placeholders[] = new Placeholder($i, substr($sql, $i, $nameLength + 1));
                        $named = true;
                    }
                    $i += $nameLength + 1;
                    break;
                case '?':
                    if ($i + 1 < $length && $sql[$i + 1] === '?') {
                        $run = strspn($sql, '?', $i);
                        // PDO's scanner takes "??" pairs; an odd one left at the end is a placeholder.
                        for ($pair = 0; $pair + 1 < $run; $pair += 2) {
                            $escapes[] = $i + $pair;
                        }
                        if ($dialect === Dialect::Pgsql && $run % 2 === 1) {
                            $placeholders[] = new Placeholder($i + $run - 1, '?');
                            $positional = true;
                        }
                        $i += $run;
                        break;
                    }
                    $placeholders[] = new Placeholder($i, '?');
                    $positional = true;
                    ++$i;
                    break;
                case '/':
                    if ($i + 1 < $length && $sql[$i + 1] === '*') {
                        $close = strpos($sql, '*/', $i + 2);
                        $i = $close === false ? $i + 1 : $close + 2;
                        break;
                    }
                    ++$i;
                    break;
                case '-':
                    if ($i + 1 < $length && $sql[$i + 1] === '-') {
                        $i += 2 + strcspn($sql, "\r\n", $i + 2);
                        break;
                    }
                    ++$i;
                    break;
                default: // '#'
                    $i += 1 + strcspn($sql, "\r\n", $i + 1);
            }
            $i += strcspn($sql, $special, $i);
        }

        $style = match (true) {
            $named && $positional => PlaceholderStyle::Mixed,
            $named => PlaceholderStyle::Named,
            $positional => PlaceholderStyle::Positional,
            default => PlaceholderStyle::None,
        };

        return new ParsedSql($sql, $placeholders, $style, $dialect === Dialect::Pgsql ? $escapes : []);
    }

    /**
     * Where the quoted run opening at $start ends (offset after its closing quote), or null if it
     * never closes. A doubled quote inside stays inside; where it could also close the run, the
     * longest complete run wins.
     */
    private static function quotedEnd(string $sql, int $start, string $quote, bool $backslashEscapes): ?int
    {
        $length = \strlen($sql);
        $stops = $backslashEscapes ? $quote . '\\' : $quote;
        $longest = null;
        $i = $start + 1;
        while (true) {
            $i += strcspn($sql, $stops, $i);
            if ($i >= $length) {
                return $longest;
            }
            if ($sql[$i] === '\\') {
                if ($i + 1 >= $length) {
                    return $longest;
                }
                $i += 2;
                continue;
            }
            if ($i + 1 < $length && $sql[$i + 1] === $quote) {
                // Either a doubled quote inside, or the end followed by a new run: keep the end as
                // a candidate and read on.
                $longest = $i + 1;
                $i += 2;
                continue;
            }

            return $i + 1;
        }
    }
}
