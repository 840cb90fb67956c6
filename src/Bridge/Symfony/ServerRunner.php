<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Psr\Log\LogLevel;
use Spindle\Server\JitRestart;
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
     * As bin/spindle does: run with OPcache and its JIT unless SPINDLE_JIT=0 (JitRestart). The
     * restart keeps the process id and the environment (APP_RUNTIME, SPINDLE_*).
     */
    private static function reexecWithJit(): void
    {
        $script = $_SERVER['SCRIPT_FILENAME'] ?? null;
        $argv = $_SERVER['argv'] ?? [];
        if (\is_string($script)) {
            JitRestart::restartIfWanted($script, \array_values(\array_map('strval', \array_slice(\is_array($argv) ? $argv : [], 1))));
        }
    }
}
