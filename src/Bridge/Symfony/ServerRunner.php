<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Psr\Log\LogLevel;
use Spindle\Server\ServerOptions;
use Spindle\Server\StreamLogger;
use Spindle\Supervisor\Master;
use Spindle\Bridge\AppFactory;
use Symfony\Component\Runtime\RunnerInterface;

/**
 * Runs Spindle's master for the app: it forks the workers, each of which boots the app's
 * kernels (see SymfonyApp) and serves until the master is stopped.
 */
final class ServerRunner implements RunnerInterface
{
    public function __construct(private readonly ServerOptions $options)
    {
    }

    public function run(): int
    {
        self::reexecWithJit();
        $logger = new StreamLogger(\STDERR, $this->options->debug ? LogLevel::DEBUG : LogLevel::INFO, $this->options->debug);

        return (new Master($this->options, $logger, \STDOUT, new AppFactory()))->run();
    }

    /**
     * As bin/spindle does: run with OPcache and its JIT unless SPINDLE_JIT=0. pcntl_exec keeps
     * the process id and the environment (APP_RUNTIME, SPINDLE_*).
     */
    private static function reexecWithJit(): void
    {
        $script = $_SERVER['SCRIPT_FILENAME'] ?? null;
        if (\filter_var(\ini_get('opcache.enable_cli'), \FILTER_VALIDATE_BOOL) || \getenv('SPINDLE_JIT') === '0'
            || \getenv('SPINDLE_REEXEC') || !\extension_loaded('Zend OPcache') || !\function_exists('pcntl_exec')
            || !\is_string($script) || !\is_file($script)) {
            return;
        }
        \putenv('SPINDLE_REEXEC=1');
        $argv = $_SERVER['argv'] ?? [];
        \pcntl_exec(\PHP_BINARY, [
            '-d', 'opcache.enable_cli=1', '-d', 'opcache.jit=tracing', '-d', 'opcache.jit_buffer_size=64M',
            $script, ...\array_map('strval', \array_slice(\is_array($argv) ? $argv : [], 1)),
        ]);
    }
}
