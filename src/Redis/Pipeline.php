<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Spindle\Redis\Protocol\ErrorReply;

/**
 * Commands queued client-side and sent at once by exec(): as a pipeline on the shared connection,
 * or as MULTI…EXEC on a dedicated one ($atomic). Replies come in order, error replies as
 * ErrorReply values.
 */
final class Pipeline
{
    /** @var list<list<string|int|float>> */
    private array $commands = [];
    private bool $executed = false;

    public function __construct(private readonly RedisClient $client, public readonly bool $atomic)
    {
    }

    /** Queues a command; returns the pipeline for chaining. */
    public function add(string|int|float ...$arguments): self
    {
        if ($this->executed) {
            throw new RedisError('This Redis pipeline was executed already');
        }
        if ($arguments === []) {
            throw new RedisError('No Redis command given');
        }
        $this->commands[] = array_values($arguments);

        return $this;
    }

    public function count(): int
    {
        return \count($this->commands);
    }

    /**
     * @return list<mixed>|null the replies in order; for a transaction null when a WATCHed key
     *                          changed (EXEC answered nil)
     *
     * @throws ServerException when the server refused the transaction (EXECABORT)
     */
    public function exec(): ?array
    {
        if ($this->executed) {
            throw new RedisError('This Redis pipeline was executed already');
        }
        $this->executed = true;
        if (!$this->atomic) {
            return $this->client->requestMany($this->commands);
        }

        return $this->client->dedicated(function (Lease $lease): ?array {
            $replies = $lease->requestMany([['MULTI'], ...$this->commands, ['EXEC']]);
            $exec = $replies[\count($replies) - 1];
            if ($exec instanceof ErrorReply) {
                throw new ServerException($exec, 'EXEC');
            }
            if ($exec !== null && !\is_array($exec)) {
                throw new Protocol\ProtocolException('EXEC answered neither an array nor nil');
            }

            return $exec === null ? null : array_values($exec);
        });
    }
}
