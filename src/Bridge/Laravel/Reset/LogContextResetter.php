<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Illuminate\Log\LogManager;

/**
 * Drops the log context a request added: `Log::shareContext()` (Laravel 9 and later) and
 * `Log::withContext()` on each channel, as Octane does. Both live in the log manager and its
 * channels, which an instance keeps from one request to the next.
 */
final class LogContextResetter implements Resetter
{
    public function __construct(private readonly Application $app)
    {
    }

    public function reset(): void
    {
        if (!$this->app->resolved('log')) {
            return;
        }
        $log = $this->app->make('log');
        if (!$log instanceof LogManager) {
            return;
        }
        if (\method_exists($log, 'flushSharedContext')) {
            $log->flushSharedContext();
        }
        foreach ($log->getChannels() as $channel) {
            if (\is_object($channel) && \method_exists($channel, 'withoutContext')) {
                $channel->withoutContext();
            }
        }
    }
}
