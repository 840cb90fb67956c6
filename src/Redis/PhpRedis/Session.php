<?php

declare(strict_types=1);

namespace Spindle\Redis\PhpRedis;

use Spindle\Redis\Lease;
use Spindle\Redis\Protocol\ErrorReply;
use Spindle\Redis\RedisClient;

/**
 * @internal The phpredis facade's MULTI and PIPELINE modes and its WATCH: the commands queued
 * client-side (with how each reply reads) and the dedicated connection held from WATCH until
 * EXEC, DISCARD or UNWATCH, on which every command of the facade then runs.
 *
 * @phpstan-import-type Built from Builders
 */
final class Session
{
    public const ATOMIC = 0;
    public const MULTI = 1;
    public const PIPELINE = 2;

    private int $mode = self::ATOMIC;
    /** @var list<Built> */
    private array $queue = [];
    private ?Lease $held = null;
    /** @var array<int, bool> in PIPELINE mode, the queue positions of a MULTI (true) and its EXEC (false) inside the pipeline */
    private array $nested = [];
    /** @var \WeakReference<object>|null the fiber (request) that opened the mode or WATCH */
    private ?\WeakReference $owner = null;

    public function mode(): int
    {
        $this->guard();

        return $this->mode;
    }

    /**
     * A MULTI, PIPELINE or WATCH left open by another fiber — a request that failed half-way,
     * its app instance now serving the next one — is abandoned, not inherited.
     */
    public function guard(): void
    {
        if (($this->mode !== self::ATOMIC || $this->held !== null) && $this->owner?->get() !== \Fiber::getCurrent()) {
            $this->mode = self::ATOMIC;
            $this->queue = [];
            $this->nested = [];
            $this->release(false);
        }
    }

    public function begin(int $mode): void
    {
        $this->guard();
        if ($this->mode === self::ATOMIC) {
            $this->claim();
            $this->mode = $mode === self::PIPELINE ? self::PIPELINE : self::MULTI;
            $this->queue = [];
            $this->nested = [];
        }
    }

    /** @param Built $command */
    public function queue(array $command): void
    {
        $this->queue[] = $command;
    }

    /**
     * In PIPELINE mode, MULTI ($open) or EXEC queued as commands of the pipeline (phpredis's
     * pipeline()->multi()->…->exec()->exec()): true when it was, false when the call is not one.
     */
    public function nest(bool $open): bool
    {
        if ($this->mode() !== self::PIPELINE) {
            return false;
        }
        $last = array_key_last($this->nested);
        $inside = $last !== null && $this->nested[$last];
        if ($open === $inside) {
            return false;
        }
        $this->nested[\count($this->queue)] = $open;
        $this->queue[] = [[$open ? 'MULTI' : 'EXEC'], Reply::Raw];

        return true;
    }

    /**
     * The results exec() returns: each queued command's reply read by $convert, a transaction
     * inside the pipeline as one result (its EXEC's replies), its MULTI and QUEUED replies left out.
     *
     * @param list<Built> $queue
     * @param list<mixed> $replies
     * @param \Closure(mixed, Reply|\Closure(mixed): mixed): mixed $convert
     *
     * @return list<mixed>
     */
    public function results(array $queue, array $replies, \Closure $convert): array
    {
        $nested = $this->nested;
        $this->nested = [];
        $results = [];
        $transaction = null;
        foreach ($queue as $i => [, $reply]) {
            $marker = $nested[$i] ?? null;
            if ($marker === true) {
                $transaction = [];
            } elseif ($marker === false) {
                $exec = $replies[$i] ?? null;
                $results[] = \is_array($exec)
                    ? array_map($convert, array_values($exec), array_pad(\array_slice($transaction ?? [], 0, \count($exec)), \count($exec), Reply::Raw))
                    : $convert($exec, Reply::Bool);
                $transaction = null;
            } elseif ($transaction !== null) {
                $transaction[] = $reply;
            } else {
                $results[] = $convert($replies[$i] ?? null, $reply);
            }
        }

        return $results;
    }

    public function held(): ?Lease
    {
        $this->guard();

        return $this->held;
    }

    /**
     * Runs what was queued and leaves the mode: a pipeline on the held or the shared connection,
     * a transaction as MULTI…EXEC on the held or a dedicated one.
     *
     * @return array{list<Built>, list<mixed>|ErrorReply|null}|null the queued commands and their
     *                                                              replies (EXEC's error, or null when a WATCHed key changed); null outside MULTI/PIPELINE
     */
    public function exec(RedisClient $client): ?array
    {
        $this->guard();
        $mode = $this->mode;
        $queue = $this->queue;
        $this->mode = self::ATOMIC;
        $this->queue = [];
        if ($mode === self::ATOMIC) {
            return null;
        }
        $commands = array_map(static fn (array $entry): array => $entry[0], $queue);
        try {
            if ($mode === self::PIPELINE) {
                if ($this->held !== null) {
                    return [$queue, $this->held->requestMany($commands)];
                }
                // a transaction inside the pipeline needs a connection of its own
                return [$queue, \in_array(['MULTI'], $commands, true)
                    ? $client->dedicated(static fn (Lease $lease): array => $lease->requestMany($commands))
                    : $client->requestMany($commands)];
            }
            $run = static fn (Lease $lease): array => $lease->requestMany([['MULTI'], ...$commands, ['EXEC']]);
            $all = $this->held !== null ? $run($this->held) : $client->dedicated($run);
            $this->release();
            $exec = $all[\count($all) - 1];

            return [$queue, \is_array($exec) ? array_values($exec) : ($exec instanceof ErrorReply ? $exec : null)];
        } catch (\Throwable $e) {
            $this->release(false);
            throw $e;
        }
    }

    public function discard(): bool
    {
        $this->guard();
        $this->nested = [];
        $wasQueuing = $this->mode !== self::ATOMIC;
        $this->mode = self::ATOMIC;
        $this->queue = [];
        if ($this->held !== null) {
            $this->held->request(['DISCARD']);
            $this->release();
        }

        return $wasQueuing;
    }

    /**
     * WATCH on the held connection (taken now if none is held).
     *
     * @param list<string> $keys
     */
    public function watch(RedisClient $client, array $keys): mixed
    {
        $this->guard();
        try {
            $held = $this->held;
            if ($held === null) {
                $held = $this->held = $client->lease();
                $this->claim();
            }

            return $held->request(['WATCH', ...$keys]);
        } catch (\Throwable $e) {
            $this->release(false);
            throw $e;
        }
    }

    public function unwatch(): void
    {
        $this->guard();
        if ($this->held !== null) {
            $this->held->request(['UNWATCH']);
            $this->release();
        }
    }

    private function claim(): void
    {
        $fiber = \Fiber::getCurrent();
        $this->owner = $fiber === null ? null : \WeakReference::create($fiber);
    }

    /** Gives the held connection back; closed rather than reused when $clean is false. */
    public function release(bool $clean = true): void
    {
        if ($this->held !== null) {
            $held = $this->held;
            $this->held = null;
            if (!$clean) {
                $held->connection->close();
            }
            $held->release();
        }
    }
}
