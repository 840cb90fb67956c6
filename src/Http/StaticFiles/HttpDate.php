<?php

declare(strict_types=1);

namespace Spindle\Http\StaticFiles;

/**
 * HTTP-date formatting and parsing (RFC 9110 §5.6.7).
 *
 * Spindle always sends IMF-fixdate; on input it accepts IMF-fixdate and the two obsolete
 * forms (RFC 850 and asctime) as recipients must. The day name is not cross-checked.
 */
final class HttpDate
{
    private const MONTHS = [
        'Jan' => 1, 'Feb' => 2, 'Mar' => 3, 'Apr' => 4, 'May' => 5, 'Jun' => 6,
        'Jul' => 7, 'Aug' => 8, 'Sep' => 9, 'Oct' => 10, 'Nov' => 11, 'Dec' => 12,
    ];

    private const IMF_FIXDATE = '/^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/D';
    private const RFC850 = '/^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/D';
    private const ASCTIME = '/^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/D';

    private function __construct()
    {
    }

    /** IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT". */
    public static function format(int $timestamp): string
    {
        return \gmdate('D, d M Y H:i:s \G\M\T', $timestamp);
    }

    /** Unix timestamp of an HTTP-date, or null when the value is not a valid HTTP-date. */
    public static function parse(string $value, ?int $now = null): ?int
    {
        $value = \trim($value, " \t");
        if (\preg_match(self::IMF_FIXDATE, $value, $m) === 1) {
            return self::build((int) $m[3], $m[2], (int) $m[1], (int) $m[4], (int) $m[5], (int) $m[6]);
        }
        if (\preg_match(self::RFC850, $value, $m) === 1) {
            // A two-digit year more than 50 years in the future means the most recent past
            // year with the same last two digits (RFC 9110 §5.6.7).
            $currentYear = (int) \gmdate('Y', $now ?? \time());
            $year = \intdiv($currentYear, 100) * 100 + (int) $m[3];
            if ($year > $currentYear + 50) {
                $year -= 100;
            }

            return self::build($year, $m[2], (int) $m[1], (int) $m[4], (int) $m[5], (int) $m[6]);
        }
        if (\preg_match(self::ASCTIME, $value, $m) === 1) {
            return self::build((int) $m[6], $m[1], (int) \trim($m[2]), (int) $m[3], (int) $m[4], (int) $m[5]);
        }

        return null;
    }

    private static function build(int $year, string $monthName, int $day, int $hour, int $minute, int $second): ?int
    {
        $month = self::MONTHS[$monthName] ?? null;
        if ($month === null || !\checkdate($month, $day, $year) || $hour > 23 || $minute > 59 || $second > 60) {
            return null;
        }

        $timestamp = \gmmktime($hour, $minute, \min($second, 59), $month, $day, $year);

        return $timestamp === false ? null : $timestamp;
    }
}
