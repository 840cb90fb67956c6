<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\Runtime\RunnerInterface;
use Symfony\Component\Runtime\SymfonyRuntime;

/**
 * symfony/runtime's entry for Spindle: with APP_RUNTIME=Spindle\Bridge\Symfony\Runtime (or
 * "extra.runtime.class" in composer.json) the standard public/index.php, run as
 * `php public/index.php`, starts a Spindle server for the app instead of handling one request.
 *
 * Everything else (the console, .env loading, APP_ENV / APP_DEBUG) is SymfonyRuntime's. The
 * server options are runtime options or SPINDLE_* variables; see RuntimeOptions.
 */
final class Runtime extends SymfonyRuntime
{
    public function getRunner(?object $application): RunnerInterface
    {
        if ($application instanceof HttpKernelInterface) {
            $options = \is_array($this->options) ? $this->options : [];

            return new ServerRunner(RuntimeOptions::serverOptions($options, $_SERVER + $_ENV));
        }

        return parent::getRunner($application);
    }
}
