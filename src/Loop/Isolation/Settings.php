<?php

declare(strict_types=1);

namespace Spindle\Loop\Isolation;

/**
 * @internal The process-wide settings a request can change with one call and that PHP lets a
 * program read back: time zone, locale, error reporting level, mbstring's internal encoding,
 * libxml's error mode, the response code, the working directory, and the ini settings
 * applications change at run time.
 *
 * unchanged() runs at the end of every request and at every wait: it compares each setting with
 * the baseline in one chain of comparisons that stops at the first difference, without building an
 * array (building and comparing one cost about twice the instructions); read() and write() run
 * only when something differs.
 *
 * Adding an ini setting takes two edits: its name at the end of INI and its line at the end of
 * unchanged(); write() needs none. tests/Unit/Loop/Isolation/SettingsTest changes every setting
 * of the list in turn and fails while unchanged() misses one.
 */
final class Settings
{
    /** ini settings that applications and libraries are known to change while serving a request. */
    public const INI = [
        'precision', 'serialize_precision', 'memory_limit', 'max_execution_time', 'default_charset',
        'display_errors', 'log_errors', 'error_log', 'html_errors', 'default_socket_timeout', 'user_agent',
        'arg_separator.output', 'pcre.backtrack_limit', 'pcre.recursion_limit', 'zend.assertions',
    ];
    private const FIRST_INI = 7;

    private readonly bool $mbstring;

    public function __construct()
    {
        $this->mbstring = \function_exists('mb_internal_encoding');
    }

    /** @return list<mixed> the settings, in the order write() and unchanged() take them */
    public function read(): array
    {
        $values = [
            \date_default_timezone_get(),
            \setlocale(\LC_ALL, '0'),
            \error_reporting(),
            $this->mbstring ? \mb_internal_encoding() : null,
            \libxml_use_internal_errors(),
            \http_response_code(),
            \getcwd(),
        ];
        foreach (self::INI as $name) {
            $values[] = \ini_get($name);
        }

        return $values;
    }

    /** @param list<mixed> $base as read() returns it */
    public function unchanged(array $base): bool
    {
        return \date_default_timezone_get() === $base[0]
            && \setlocale(\LC_ALL, '0') === $base[1]
            && \error_reporting() === $base[2]
            && (!$this->mbstring || \mb_internal_encoding() === $base[3])
            && \libxml_use_internal_errors() === $base[4]
            && \http_response_code() === $base[5]
            && \getcwd() === $base[6]
            && \ini_get('precision') === $base[7]
            && \ini_get('serialize_precision') === $base[8]
            && \ini_get('memory_limit') === $base[9]
            && \ini_get('max_execution_time') === $base[10]
            && \ini_get('default_charset') === $base[11]
            && \ini_get('display_errors') === $base[12]
            && \ini_get('log_errors') === $base[13]
            && \ini_get('error_log') === $base[14]
            && \ini_get('html_errors') === $base[15]
            && \ini_get('default_socket_timeout') === $base[16]
            && \ini_get('user_agent') === $base[17]
            && \ini_get('arg_separator.output') === $base[18]
            && \ini_get('pcre.backtrack_limit') === $base[19]
            && \ini_get('pcre.recursion_limit') === $base[20]
            && \ini_get('zend.assertions') === $base[21];
    }

    /**
     * Sets the settings in $target that differ from $current (both from read()).
     *
     * @param list<mixed> $target
     * @param list<mixed> $current
     */
    public function write(array $target, array $current): void
    {
        foreach ($target as $key => $value) {
            if ($current[$key] === $value) {
                continue;
            }
            if ($key >= self::FIRST_INI) {
                @\ini_set(self::INI[$key - self::FIRST_INI], (string) $value);
                continue;
            }
            match ($key) {
                0 => \date_default_timezone_set((string) $value),
                1 => \setlocale(\LC_ALL, (string) $value),
                2 => \error_reporting((int) $value),
                3 => $value !== null && \mb_internal_encoding((string) $value),
                4 => \libxml_use_internal_errors((bool) $value),
                5 => \is_int($value) && \http_response_code($value),
                default => \is_string($value) && @\chdir($value),
            };
        }
        if ($target[4] !== $current[4]) {
            \libxml_clear_errors();
        }
    }
}
