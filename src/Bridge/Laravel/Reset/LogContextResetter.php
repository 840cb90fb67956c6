<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Illuminate\Log\LogManager;

/**
 * Forgets the context a request added to its log lines (`Log::withContext()`, and the shared
 * context of `Log::shareContext()` where Laravel has it): the channels' loggers live as long as
 * the app instance, so the next request would otherwise log with this one's context.
 */
final class LogContextResetter implements Resetter
{
    /** @var BootedService<LogManager> */
    private readonly BootedService $log;

    public function __construct(private readonly Application $app)
    {
        $this->log = BootedService::of($app, 'log', LogManager::class);
    }

    public function reset(): void
    {
        $manager = $this->log->current();
        if ($manager === null) {
            return;
        }
        if (\method_exists($manager, 'flushSharedContext')) {
            $manager->flushSharedContext();
        }
        foreach ($manager->getChannels() as $logger) {
            if (\is_object($logger) && \method_exists($logger, 'withoutContext')) {
                $logger->withoutContext();
            }
        }
    }
}
