<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Database\DatabaseManager;
use Illuminate\Foundation\Application;

/**
 * Empties the query log of every open connection, and turns logging off again where a request
 * turned it on (`DB::enableQueryLog()`): a log that grows request after request is a leak.
 */
final class QueryLogResetter implements Resetter
{
    private readonly ?DatabaseManager $booted;

    public function __construct(private readonly Application $app)
    {
        $this->booted = BootedService::of($app, 'db', DatabaseManager::class);
    }

    public function reset(): void
    {
        if ($this->booted === null && !$this->app->resolved('db')) {
            return;
        }
        $db = $this->booted ?? $this->app->make('db');
        if (!$db instanceof DatabaseManager) {
            return;
        }
        foreach ($db->getConnections() as $connection) {
            $connection->flushQueryLog();
            $connection->disableQueryLog();
        }
    }
}
