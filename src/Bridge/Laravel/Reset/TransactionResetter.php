<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Database\DatabaseManager;
use Illuminate\Foundation\Application;
use Psr\Log\LoggerInterface;

/**
 * Rolls back a transaction that a request left open (`DB::beginTransaction()` without commit),
 * with a warning in the log: otherwise the next request on the instance would run inside it.
 * A connection whose rollback fails is disconnected (the server then rolls back).
 */
final class TransactionResetter implements Resetter
{
    /** @var BootedService<DatabaseManager> */
    private readonly BootedService $db;

    public function __construct(
        private readonly Application $app,
        private readonly LoggerInterface $logger,
    ) {
        $this->db = BootedService::of($app, 'db', DatabaseManager::class);
    }

    public function reset(): void
    {
        $db = $this->db->current();
        if ($db === null) {
            return;
        }
        foreach ($db->getConnections() as $name => $connection) {
            $level = $connection->transactionLevel();
            if ($level === 0) {
                continue;
            }
            $this->logger->warning(\sprintf('A request left %d transaction level(s) open on database connection "%s": rolled back', $level, $name));
            try {
                $connection->rollBack(0);
            } catch (\Throwable $e) {
                $this->logger->error(\sprintf('Rolling back on database connection "%s" failed (%s): disconnected', $name, $e->getMessage()));
                $db->purge((string) $name);
            }
        }
    }
}
