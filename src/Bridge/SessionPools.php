<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Psr\Log\LoggerInterface;
use Psr\Log\NullLogger;
use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\SocketConnection;
use Spindle\Database\Pdo\PgsqlSession;
use Spindle\Database\Pool\ConnectionPool;
use Spindle\Database\Pool\PgsqlRequestConnection;
use Spindle\Database\Pool\PoolStats;
use Spindle\Database\Pool\RequestConnection;
use Spindle\Database\Pool\SessionBaseline;
use Spindle\Database\Mysql\StatementCacheStats;
use Spindle\Metrics\Family;
use Spindle\Metrics\MetricType;
use Spindle\Metrics\Registry;

/**
 * A worker's pools of database sessions, one per connection configuration, shared by every app
 * instance of the worker: a framework's Pdo gets a RequestConnection over the pool of its
 * configuration, so the worker never holds more sessions than the pool's size, however many
 * requests run at once.
 *
 * The size is the connection's own `pool` setting when it has one, else `--db-pool`
 * (SPINDLE_DB_POOL), else DEFAULT_SIZE; of those, CORE_SIZE (SPINDLE_DB_POOL_CORE) open as
 * requests ask, the others only while every session lent out waits on a slow query. A request waits at most `--db-pool-timeout`
 * (SPINDLE_DB_POOL_TIMEOUT) seconds for a session, then gets PoolTimeout. Each session keeps
 * up to `SPINDLE_DB_STATEMENT_CACHE` prepared statements (StatementCache).
 *
 * On `--metrics`: spindle_db_pool_sessions{pool,state}, spindle_db_pool_size{pool},
 * spindle_db_pool_waiting{pool}, spindle_db_pool_waits_total{pool},
 * spindle_db_pool_wait_seconds_total{pool}, spindle_db_pool_timeouts_total{pool} and
 * spindle_db_statement_cache_total{result}.
 */
final class SessionPools
{
    /**
     * The most sessions per worker and connection configuration unless configured: enough for
     * a worker whose requests wait on slow queries (the blog's /sleep, ten clients on one
     * worker, needs ten) without letting a worker flood the server.
     */
    public const DEFAULT_SIZE = 16;
    /**
     * Sessions opened as requests ask; past them a pool grows (up to its size) only while every
     * session it lent waits on a slow query (ConnectionPool's $coreSize). On this project's
     * 2-core machine the blog's /batch ran as fast with 4 sessions a worker as with 16, with a
     * third of the p99 latency (docs/database.md, "Sessions per worker").
     */
    public const CORE_SIZE = 4;
    public const DEFAULT_WAIT_TIMEOUT = 10.0;
    /** Prepared statements each session keeps (StatementCache) unless configured. */
    public const DEFAULT_STATEMENT_CACHE = 256;

    /** @var array<string, array{ConnectionPool, SessionBaseline, string}> by configuration key */
    private array $pools = [];
    public readonly StatementCacheStats $statements;

    public function __construct(
        /** null: each connection's `pool` setting, else DEFAULT_SIZE */
        private readonly ?int $size = null,
        private readonly float $waitTimeout = self::DEFAULT_WAIT_TIMEOUT,
        private readonly int $statementCache = self::DEFAULT_STATEMENT_CACHE,
        private readonly LoggerInterface $logger = new NullLogger(),
        private readonly int $coreSize = self::CORE_SIZE,
    ) {
        if ($size !== null && $size < 1) {
            throw new \InvalidArgumentException(\sprintf('A database pool needs at least 1 session, %d given', $size));
        }
        $this->statements = new StatementCacheStats();
    }

    /**
     * A worker's pools (BridgeServices::sessionPools() holds them), set from the environment
     * (SPINDLE_DB_POOL, SPINDLE_DB_POOL_TIMEOUT, SPINDLE_DB_STATEMENT_CACHE), their figures in
     * $metrics.
     */
    public static function forWorker(LoggerInterface $logger, Registry $metrics): self
    {
        $pools = self::fromEnvironment($logger);
        $pools->export($metrics);

        return $pools;
    }

    /**
     * A connection over the pool of configuration $key (made on first use; $open opens and sets
     * up a new session of it).
     *
     * @param \Closure(): SocketConnection $open
     * @param int|null $size the configuration's own pool size, if it sets one
     */
    public function connection(string $key, string $name, ?int $size, \Closure $open): RequestConnection
    {
        return $this->requestConnection($key, $name, $size, $open)[0];
    }

    /**
     * A PostgreSQL Pdo's connection over the pool of configuration $key (made on first use;
     * $open opens and sets up a new session of it). Each session keeps up to the statement
     * cache's size of server-side statements, across requests (PgsqlSession::keepStatements()).
     *
     * @param \Closure(): PgsqlSession $open
     * @param int|null $size the configuration's own pool size, if it sets one
     */
    public function pgsqlConnection(string $key, string $name, ?int $size, \Closure $open): PgsqlRequestConnection
    {
        [$connection, $baseline] = $this->requestConnection('pgsql:' . $key, $name, $size, $open);

        return new PgsqlRequestConnection($connection, $baseline);
    }

    /**
     * @param \Closure(): Connection $open
     *
     * @return array{RequestConnection, SessionBaseline}
     */
    private function requestConnection(string $key, string $name, ?int $size, \Closure $open): array
    {
        [$pool, $baseline] = $this->pools[$key] ??= $this->makePool($name, $size, $open);

        $logger = $this->logger;

        return [new RequestConnection($pool, $baseline, static function (string $warning) use ($logger): void {
            $logger->warning($warning);
        }), $baseline];
    }

    /** @return array<string, PoolStats> each pool's figures, by name (the first configuration of a name wins) */
    public function stats(): array
    {
        $stats = [];
        foreach ($this->pools as [$pool, , $name]) {
            $stats[$name] ??= $pool->stats();
        }

        return $stats;
    }

    /**
     * @param \Closure(): Connection $open
     *
     * @return array{ConnectionPool, SessionBaseline, string}
     */
    private function makePool(string $name, ?int $size, \Closure $open): array
    {
        $baseline = new SessionBaseline();
        $cacheSize = $this->statementCache;
        $stats = $this->statements;
        $connect = static function () use ($open, $baseline, $cacheSize, $stats): Connection {
            $connection = $open();
            if ($cacheSize > 0 && ($connection instanceof SocketConnection || $connection instanceof PgsqlSession)) {
                $connection->keepStatements($cacheSize, $stats);
            }
            if ($connection instanceof SocketConnection) {
                // A session a request left as a new one then goes back without a reset.
                $connection->trackSessionChanges();
            }
            $baseline->learn($connection);

            return $connection;
        };
        $size ??= $this->size ?? self::DEFAULT_SIZE;
        if ($size < 1) {
            throw new \InvalidArgumentException(\sprintf('The pool of database connection "%s" needs at least 1 session, %d given', $name, $size));
        }

        return [new ConnectionPool($connect, $size, $this->waitTimeout, coreSize: $this->coreSize), $baseline, $name];
    }

    private static function fromEnvironment(LoggerInterface $logger): self
    {
        return new self(
            self::setting('SPINDLE_DB_POOL', 1),
            (float) (self::setting('SPINDLE_DB_POOL_TIMEOUT', 0) ?? self::DEFAULT_WAIT_TIMEOUT),
            self::setting('SPINDLE_DB_STATEMENT_CACHE', 0) ?? self::DEFAULT_STATEMENT_CACHE,
            $logger,
            self::setting('SPINDLE_DB_POOL_CORE', 1) ?? self::CORE_SIZE,
        );
    }

    private static function setting(string $name, int $min): ?int
    {
        $value = WorkerEnvironment::value($name);
        if ($value === null) {
            return null;
        }
        if (\filter_var($value, \FILTER_VALIDATE_INT) === false || (int) $value < $min) {
            throw new \InvalidArgumentException(\sprintf('%s must be a whole number of at least %d, got %s', $name, $min, \var_export($value, true)));
        }

        return (int) $value;
    }

    private function export(Registry $registry): void
    {
        $reference = \WeakReference::create($this);
        $registry->collectWith('spindle_db_pool', static function () use ($reference): array {
            $pools = $reference->get();
            if ($pools === null) {
                return [];
            }
            $sessions = $size = $waiting = $waits = $waited = $timeouts = [];
            foreach ($pools->stats() as $name => $stats) {
                $sessions[$name . Family::SEPARATOR . 'idle'] = (float) $stats->idle;
                $sessions[$name . Family::SEPARATOR . 'busy'] = (float) $stats->inUse;
                $size[$name] = (float) $stats->maxSize;
                $waiting[$name] = (float) $stats->waiting;
                $waits[$name] = (float) $stats->waits;
                $waited[$name] = $stats->waitSeconds;
                $timeouts[$name] = (float) $stats->timeouts;
            }
            $cache = $pools->statements;

            return [
                new Family('spindle_db_pool_sessions', MetricType::Gauge, 'Database sessions of the workers\' pools, idle or busy (held by a request)', ['pool', 'state'], [], $sessions),
                new Family('spindle_db_pool_size', MetricType::Gauge, 'The most sessions each worker\'s pool holds, summed over the workers', ['pool'], [], $size),
                new Family('spindle_db_pool_waiting', MetricType::Gauge, 'Requests waiting for a database session now', ['pool'], [], $waiting),
                new Family('spindle_db_pool_waits_total', MetricType::Counter, 'Requests that had to wait for a database session', ['pool'], [], $waits),
                new Family('spindle_db_pool_wait_seconds_total', MetricType::Counter, 'Seconds requests spent waiting for a database session, added up', ['pool'], [], $waited),
                new Family('spindle_db_pool_timeouts_total', MetricType::Counter, 'Requests that gave up waiting for a database session (PoolTimeout)', ['pool'], [], $timeouts),
                new Family('spindle_db_statement_cache_total', MetricType::Counter, 'Prepares answered from the sessions\' statement caches (hit), sent to the server (miss), and kept statements closed (eviction)', ['result'], [], [
                    'hit' => (float) $cache->hits,
                    'miss' => (float) $cache->misses,
                    'eviction' => (float) $cache->evictions,
                ]),
            ];
        });
    }
}
