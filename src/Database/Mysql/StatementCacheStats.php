<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/**
 * What the statement caches of a group of connections (a pool's) did: counters only ever grow.
 * Shared by the caches it is given to; read for metrics.
 */
final class StatementCacheStats
{
    /** Prepares answered from a cache (no COM_STMT_PREPARE sent). */
    public int $hits = 0;
    /** Prepares that went to the server. */
    public int $misses = 0;
    /** Kept statements closed to stay within a cache's bound or the server's limit. */
    public int $evictions = 0;
}
