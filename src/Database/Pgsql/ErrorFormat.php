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

    /**
     * "LINE n: text" and a caret under the 1-based character $position, as libpq shows it: tabs
     * as blanks, a line longer than 60 screen columns cut (with "...") around the position.
     */
    private static function position(string $query, int $position): string
    {
        $chars = preg_match('//u', $query) === 1 ? (preg_split('//u', $query, -1, PREG_SPLIT_NO_EMPTY) ?: []) : str_split($query);
        $location = $position - 1;
        if ($location < 0) {
            return '';
        }
        $count = \count($chars);
        $columns = []; // screen offset of each character
        $line = 1;
        $begin = 0;
        $end = -1;
        $screen = 0;
        $index = 0;
        for (; $index < $count; ++$index) {
            $columns[$index] = $screen;
            $char = $chars[$index];
            if ($char === "\t") {
                $chars[$index] = ' ';
            } elseif ($char === "\r" || $char === "\n") {
                if ($index < $location) {
                    if ($char === "\r" || $index === 0 || $chars[$index - 1] !== "\r") {
                        ++$line;
                    }
                    $begin = $index + 1;
                } else {
                    $end = $index;
                    break;
                }
            }
            $screen += \strlen($char) === 1 ? 1 : max(1, mb_strwidth($char, 'UTF-8'));
        }
        if ($end < 0) {
            $end = $index;
            $columns[$index] = $screen;
        }
        if ($location > $index) {
            return '';
        }
        $cutLeft = false;
        $cutRight = false;
        if ($columns[$end] - $columns[$begin] > self::DISPLAY_SIZE) {
            if ($columns[$begin] + self::DISPLAY_SIZE >= $columns[$location] + self::MIN_RIGHT_CUT) {
                while ($columns[$end] - $columns[$begin] > self::DISPLAY_SIZE) {
                    --$end;
                }
                $cutRight = true;
            } else {
                while ($columns[$location] + self::MIN_RIGHT_CUT < $columns[$end]) {
                    --$end;
                    $cutRight = true;
                }
                while ($columns[$end] - $columns[$begin] > self::DISPLAY_SIZE) {
                    ++$begin;
                    $cutLeft = true;
                }
            }
        }
        $prefix = 'LINE ' . $line . ': ' . ($cutLeft ? '...' : '');

        return $prefix . implode('', \array_slice($chars, $begin, $end - $begin)) . ($cutRight ? '...' : '') . "\n"
            . str_repeat(' ', \strlen($prefix) + $columns[$location] - $columns[$begin]) . "^\n";
    }
}
