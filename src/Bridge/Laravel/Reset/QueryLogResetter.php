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
    /** @var BootedService<DatabaseManager> */
    private readonly BootedService $db;

    public function __construct(private readonly Application $app)
    {
        $this->db = BootedService::of($app, 'db', DatabaseManager::class);
    }

    public function reset(): void
    {
        $db = $this->db->current();
        if ($db === null) {
            return;
        }
        foreach ($db->getConnections() as $connection) {
            $connection->flushQueryLog();
            $connection->disableQueryLog();
        }
    }
}
