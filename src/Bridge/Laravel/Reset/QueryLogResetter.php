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
    public function __construct(private readonly Application $app)
    {
    }

    public function reset(): void
    {
        if (!$this->app->resolved('db')) {
            return;
        }
        $db = $this->app->make('db');
        if (!$db instanceof DatabaseManager) {
            return;
        }
        foreach ($db->getConnections() as $connection) {
            $connection->flushQueryLog();
            $connection->disableQueryLog();
        }
    }
}
