<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/**
 * PDO's placeholders in PostgreSQL's form, as pdo_pgsql rewrites them: "?" and ":name" become
 * $1, $2, …, and "??" (PDO's escape for PostgreSQL's ? operators) becomes "?".
 *
 * @internal
 */
final class PgsqlPlaceholders
{
    private function __construct()
    {
    }

    /**
     * "?" and ":name" placeholders numbered $1, $2, … (a ":name" used twice gets one number
     * each time, as PDO rewrites it); "??" becomes "?".
     *
     * @return array{string, int}
     */
    public static function number(string $sql): array
    {
        $parsed = SqlParser::parse($sql, Dialect::Pgsql);
        $out = '';
        $from = 0;
        $number = 0;
        foreach ($parsed->placeholders as $placeholder) {
            $out .= self::unescapeQuestionMarks(substr($sql, $from, $placeholder->offset - $from), $parsed, $from) . '$' . ++$number;
            $from = $placeholder->end();
        }

        return [$out . self::unescapeQuestionMarks(substr($sql, $from), $parsed, $from), $number];
    }

    /**
     * A parsed statement as the server prepares it: each placeholder becomes $n (a name used
     * twice keeps its number), "??" becomes "?". With the parameter count and, for named
     * placeholders, the name at each position.
     *
     * @return array{string, int, array<int, string>|null}
     */
    public static function numberParsed(string $query, ParsedSql $parsed): array
    {
        $sql = '';
        $from = 0;
        $numbers = [];
        foreach ($parsed->placeholders as $position => $placeholder) {
            if ($parsed->style === PlaceholderStyle::Named) {
                $numbers[$placeholder->text] ??= \count($numbers) + 1;
                $number = $numbers[$placeholder->text];
            } else {
                $number = $position + 1;
            }
            $sql .= self::unescapeQuestionMarks(substr($query, $from, $placeholder->offset - $from), $parsed, $from) . '$' . $number;
            $from = $placeholder->end();
        }
        $sql .= self::unescapeQuestionMarks(substr($query, $from), $parsed, $from);
        $positionNames = null;
        foreach ($numbers as $name => $number) {
            $positionNames[$number - 1] = $name;
        }
        $count = $parsed->style === PlaceholderStyle::Named ? \count($numbers) : \count($parsed->placeholders);

        return [$sql, $count, $positionNames];
    }

    /** "??" outside strings, identifiers and comments becomes "?" (PDO's escape for PostgreSQL's ? operators). */
    public static function unescapeQuestionMarks(string $sql, ?ParsedSql $parsed = null, int $base = 0): string
    {
        if (!str_contains($sql, '??')) {
            return $sql;
        }
        $escapes = $parsed !== null ? $parsed->escapedQuestionMarks : SqlParser::parse($sql, Dialect::Pgsql)->escapedQuestionMarks;
        $out = '';
        $from = 0;
        foreach ($escapes as $offset) {
            $offset -= $base;
            if ($offset < $from || $offset >= \strlen($sql)) {
                continue;
            }
            $out .= substr($sql, $from, $offset - $from) . '?';
            $from = $offset + 2;
        }

        return $out . substr($sql, $from);
    }
}
