<?php

declare(strict_types=1);

namespace Spindle\Loop\Isolation;

/**
 * @internal The process-wide settings a request can change with one call and that PHP lets a
 * program read back: time zone, locale, error reporting level, mbstring's internal encoding,
 * libxml's error mode, the response code, the working directory, and the ini settings
 * applications change at run time.
 *
 * read() takes them all in one array so that a task's settings are compared with the baseline
 * in one step (about 0.6 µs, half of it the working directory's system call); write() sets back only the ones that differ.
 */
final class Settings
{
    /** ini settings that applications and libraries are known to change while serving a request. */
    public const INI = [
        'precision', 'serialize_precision', 'memory_limit', 'max_execution_time', 'default_charset',
        'display_errors', 'log_errors', 'error_log', 'html_errors', 'default_socket_timeout', 'user_agent',
        'arg_separator.output', 'pcre.backtrack_limit', 'pcre.recursion_limit', 'zend.assertions',
    ];

    private readonly bool $mbstring;

    public function __construct()
    {
        $this->mbstring = \function_exists('mb_internal_encoding');
    }

    /** @return array<int|string, mixed> */
    public function read(): array
    {
        return [
            \date_default_timezone_get(),
            \setlocale(\LC_ALL, '0'),
            \error_reporting(),
            $this->mbstring ? \mb_internal_encoding() : null,
            \libxml_use_internal_errors(),
            \http_response_code(),
            \getcwd(),
            'precision' => \ini_get('precision'),
            'serialize_precision' => \ini_get('serialize_precision'),
            'memory_limit' => \ini_get('memory_limit'),
            'max_execution_time' => \ini_get('max_execution_time'),
            'default_charset' => \ini_get('default_charset'),
            'display_errors' => \ini_get('display_errors'),
            'log_errors' => \ini_get('log_errors'),
            'error_log' => \ini_get('error_log'),
            'html_errors' => \ini_get('html_errors'),
            'default_socket_timeout' => \ini_get('default_socket_timeout'),
            'user_agent' => \ini_get('user_agent'),
            'arg_separator.output' => \ini_get('arg_separator.output'),
            'pcre.backtrack_limit' => \ini_get('pcre.backtrack_limit'),
            'pcre.recursion_limit' => \ini_get('pcre.recursion_limit'),
            'zend.assertions' => \ini_get('zend.assertions'),
        ];
    }

    /**
     * Sets the settings in $target that differ from $current (both from read()).
     *
     * @param array<int|string, mixed> $target
     * @param array<int|string, mixed> $current
     */
    public function write(array $target, array $current): void
    {
        foreach ($target as $key => $value) {
            if ($current[$key] === $value) {
                continue;
            }
            match ($key) {
                0 => \date_default_timezone_set((string) $value),
                1 => \setlocale(\LC_ALL, (string) $value),
                2 => \error_reporting((int) $value),
                3 => $value !== null && \mb_internal_encoding((string) $value),
                4 => \libxml_use_internal_errors((bool) $value),
                5 => \is_int($value) && \http_response_code($value),
                6 => \is_string($value) && @\chdir($value),
                default => @\ini_set((string) $key, (string) $value),
            };
        }
        if ($target[4] !== $current[4]) {
            \libxml_clear_errors();
        }
    }
}
