<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Database\Pgsql\Protocol\ServerMessage;

/**
 * A server error as libpq's default verbosity shows it: "SEVERITY:  message", the statement line
 * with a caret under the error position, then DETAIL, HINT, QUERY and CONTEXT lines.
 */
final class ErrorFormat
{
    private const DISPLAY_SIZE = 60;
    private const MIN_RIGHT_CUT = 10;

    private function __construct()
    {
    }

    public static function format(ServerMessage $error, ?string $query = null): string
    {
        $text = $error->severity() . ':  ' . $error->message() . "\n";
        $position = $error->position();
        if ($position !== null && $query !== null) {
            $text .= self::position($query, $position);
        } elseif (($internal = $error->field('p')) !== null && ($internalQuery = $error->field('q')) !== null) {
            $text .= self::position($internalQuery, (int) $internal);
        }
        foreach (['D' => 'DETAIL', 'H' => 'HINT', 'q' => 'QUERY', 'W' => 'CONTEXT'] as $code => $label) {
            $value = $error->field($code);
            if ($value !== null) {
                $text .= $label . ':  ' . $value . "\n";
            }
        }

        return rtrim($text, "\n");
    }

    /** "LINE n: text" and the caret line, for a 1-based character position. */
    private static function position(string $query, int $position): string
    {
        $utf8 = preg_match('//u', $query) === 1;
        $chars = $utf8 ? (preg_split('//u', $query, -1, PREG_SPLIT_NO_EMPTY) ?: []) : str_split($query);
        $location = $position - 1;
        if ($location < 0 || $location > \count($chars)) {
            return '';
        }
        // Tabs count as one screen column each after being shown as spaces; lines end at \n or \r.
        $line = 1;
        $lineStart = 0;
        $count = \count($chars);
        for ($i = 0; $i < $location && $i < $count; ++$i) {
            if ($chars[$i] === "\n" || ($chars[$i] === "\r" && ($chars[$i + 1] ?? '') !== "\n")) {
                ++$line;
                $lineStart = $i + 1;
            } elseif ($chars[$i] === "\r") {
                // "\r\n": the "\n" ends the line.
            }
        }
        $lineEnd = $lineStart;
        while ($lineEnd < $count && $chars[$lineEnd] !== "\n" && $chars[$lineEnd] !== "\r") {
            ++$lineEnd;
        }
        $lineChars = \array_slice($chars, $lineStart, $lineEnd - $lineStart);
        $lineChars = array_map(static fn (string $c): string => $c === "\t" ? ' ' : $c, $lineChars);
        $column = $location - $lineStart;
        $width = \count($lineChars);
        $prefix = '';
        $suffix = '';
        if ($width > self::DISPLAY_SIZE) {
            // Show DISPLAY_SIZE columns around the error, with "..." where the line was cut.
            $start = 0;
            if ($column >= self::DISPLAY_SIZE - self::MIN_RIGHT_CUT) {
                $start = min($column - (self::DISPLAY_SIZE - self::MIN_RIGHT_CUT) + 1 + 10, $width - self::DISPLAY_SIZE);
                $start = max($start, 0);
                $prefix = '...';
            }
            $end = $start + self::DISPLAY_SIZE;
            if ($end < $width) {
                $suffix = '...';
            }
            $lineChars = \array_slice($lineChars, $start, $end - $start);
            $column = $column - $start + \strlen($prefix);
        }
        $label = 'LINE ' . $line . ': ';

        return $label . $prefix . implode('', $lineChars) . $suffix . "\n" . str_repeat(' ', \strlen($label) + $column) . "^\n";
    }
}
