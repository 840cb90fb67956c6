<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Spindle\Redis\Protocol\ErrorReply;

/**
 * A dedicated connection lent by a client: WATCH, MULTI…EXEC and anything else that needs the
 * same connection for several commands. Give it back with release() (done for you by
 * RedisClient::dedicated()).
 */
final class Lease
{
    private bool $released = false;
    /** whether the session holds state (WATCH, MULTI) that the next borrower must not see */
    private bool $dirty = false;

    public function __construct(private readonly ConnectionPool $pool, public readonly Connection $connection)
    {
    }

    /**
     * @throws ServerException on an error reply
     * @throws ConnectionException
     */
    public function execute(string|int|float ...$arguments): mixed
    {
        $reply = $this->request(array_values($arguments));
        if ($reply instanceof ErrorReply) {
            throw new ServerException($reply, strtoupper((string) $arguments[0]));
        }

        return $reply;
    }

    /**
     * @param list<string|int|float> $arguments
     * @param float|null $timeout seconds for this reply (null: the read timeout, 0: none)
     *
     * @return mixed the reply, an error reply as a value
     */
    public function request(array $arguments, ?float $timeout = null): mixed
    {
        $this->track((string) $arguments[0]);

        return $this->connection->execute($arguments, $timeout);
    }

    /**
     * @param list<list<string|int|float>> $commands
     *
     * @return list<mixed>
     */
    public function requestMany(array $commands): array
    {
        foreach ($commands as $command) {
            $this->track((string) $command[0]);
        }

        return $this->connection->executeMany($commands);
    }

    public function release(): void
    {
        if ($this->released) {
            return;
        }
        $this->released = true;
        $this->pool->release($this->connection, !$this->dirty);
    }

    public function __destruct()
    {
        $this->release();
    }

    private function track(string $command): void
    {
        if ($this->released) {
            throw new RedisError('This dedicated Redis connection was released');
        }
        $command = strtoupper($command);
        if ($command === 'WATCH' || $command === 'MULTI') {
            $this->dirty = true;
        } elseif ($command === 'EXEC' || $command === 'DISCARD' || $command === 'UNWATCH') {
            $this->dirty = false;
        }
    }
}
