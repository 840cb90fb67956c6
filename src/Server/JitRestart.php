<?php

declare(strict_types=1);

namespace Spindle\Server;

/**
 * Restarts the PHP process once, in place (pcntl_exec keeps the process id and the environment),
 * with OPcache and its tracing JIT when the CLI runs without them: the request path is plain PHP
 * and the JIT makes it markedly faster. bin/spindle and the Symfony runtime's server both use it;
 * SPINDLE_JIT=0 keeps the process as it was started.
 *
 * The JIT's trace budget is raised with it. PHP compiles at most `opcache.jit_max_root_traces`
 * traces (1,024 by default), root and side traces together, shared by the master and its
 * workers; a trace that does not fit is never compiled and its code stays in the interpreter for
 * the life of the server. Booting a Laravel app instance and serving the blog's three routes takes
 * about 1,110 traces, so with PHP's default the budget ran out during the first route, and
 * whatever became hot later (other routes, code paths a request reaches later) ran uncompiled.
 */
final class JitRestart
{
    /** The settings of the restarted process. */
    public const SETTINGS = [
        'opcache.enable_cli' => '1',
        'opcache.jit' => 'tracing',
        'opcache.jit_buffer_size' => '64M',
        'opcache.jit_max_root_traces' => '8192',
        'opcache.jit_max_exit_counters' => '65536',
    ];

    /**
     * Restarts $script with $arguments under SETTINGS, unless OPcache is already on for the CLI,
     * SPINDLE_JIT=0, this process is such a restart already, or PHP cannot do it; returns only then.
     *
     * @param list<string> $arguments
     */
    public static function restartIfWanted(string $script, array $arguments): void
    {
        if (\filter_var(\ini_get('opcache.enable_cli'), \FILTER_VALIDATE_BOOL) || \getenv('SPINDLE_JIT') === '0'
            || \getenv('SPINDLE_REEXEC') || !\extension_loaded('Zend OPcache') || !\function_exists('pcntl_exec')
            || !\is_file($script)) {
            return;
        }
        \putenv('SPINDLE_REEXEC=1');
        $settings = [];
        foreach (self::SETTINGS as $name => $value) {
            \array_push($settings, '-d', $name . '=' . $value);
        }
        \pcntl_exec(\PHP_BINARY, [...$settings, $script, ...$arguments]);
    }

    /**
     * What to tell the operator when this process runs the tracing JIT on a smaller trace budget
     * than SETTINGS (a php.ini that turns OPcache on for the CLI, so that no restart happened);
     * null when the budget is as large or the tracing JIT is not on.
     */
    public static function budgetAdvice(): ?string
    {
        $status = \function_exists('opcache_get_status') ? @\opcache_get_status(false) : false;
        $jit = \is_array($status) && \is_array($status['jit'] ?? null) ? $status['jit'] : [];
        $budget = (int) \ini_get('opcache.jit_max_root_traces');
        $wanted = (int) self::SETTINGS['opcache.jit_max_root_traces'];
        if (($jit['on'] ?? false) !== true || \ini_get('opcache.jit') !== 'tracing' || $budget >= $wanted) {
            return null;
        }

        return \sprintf(
            'The tracing JIT compiles at most %d traces (opcache.jit_max_root_traces) in this server\'s life; '
            . 'a framework app can spend them during its first routes, and code that becomes hot later stays '
            . 'interpreted. Start PHP with -d opcache.jit_max_root_traces=%d -d opcache.jit_max_exit_counters=%s (docs/options.md).',
            $budget,
            $wanted,
            self::SETTINGS['opcache.jit_max_exit_counters'],
        );
    }
}
