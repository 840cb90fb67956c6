<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
use Spindle\Redis\Protocol\ErrorReply;

/**
 * Spindle's fiber-aware Redis client. Commands from all fibers share one pipelined connection;
 * blocking commands (BLPOP, BRPOP, BLMOVE, BZPOPMIN, XREAD BLOCK, WAIT, …), transactions and
 * subscriptions take a dedicated connection from a bounded pool for their duration. Outside a
 * fiber every call is synchronous.
 *
 *     $redis = RedisClient::fromUrl('redis://127.0.0.1:6379/0');
 *     $redis->execute('SET', 'greeting', 'hello');
 *     $value = $redis->execute('GET', 'greeting');
 *
 * Replies come as {@see Protocol\RespParser} describes; execute() throws ServerException for an
 * error reply, request() returns it as an ErrorReply value.
 */
final class RedisClient
{
    /** Seconds after a blocking command's own timeout before the server is woken (wakeServer()). */
    public const WAKE_AFTER = 0.002;

    private ?Connection $shared = null;
    private bool $waking = false;
    /** @var list<Suspension<mixed>>|null fibers waiting while one connects the shared connection */
    private ?array $connecting = null;
    private readonly ConnectionPool $pool;

    public function __construct(public readonly RedisConfig $config)
    {
        $this->pool = new ConnectionPool($config);
    }

    public static function fromUrl(string $url): self
    {
        return new self(RedisConfig::fromUrl($url));
    }

    /**
     * @throws ServerException on an error reply
     * @throws ConnectionException
     */
    public function execute(string|int|float ...$arguments): mixed
    {
        $arguments = array_values($arguments);
        $reply = $this->request($arguments);
        if ($reply instanceof ErrorReply) {
            throw new ServerException($reply, strtoupper((string) $arguments[0]));
        }

        return $reply;
    }

    /**
     * One command, its reply as it came (an error reply as an ErrorReply value).
     *
     * @param list<string|int|float> $arguments the command name first
     *
     * @throws ConnectionException
     */
    public function request(array $arguments): mixed
    {
        if ($arguments === []) {
            throw new RedisError('No Redis command given');
        }
        $blocking = Commands::blockingTimeout($arguments);
        if ($blocking !== null) {
            $lease = $this->lease();
            $wake = $blocking > 0 ? EventLoop::unreference(EventLoop::delay($blocking + self::WAKE_AFTER, $this->wakeServer(...))) : null;
            try {
                return $lease->request($arguments, $blocking > 0 && $this->config->readTimeout > 0 ? $blocking + $this->config->readTimeout : 0.0);
            } finally {
                if ($wake !== null) {
                    EventLoop::cancel($wake);
                }
                $lease->release();
            }
        }
        if (Commands::needsSession((string) $arguments[0])) {
            throw new RedisError(sprintf(
                '%s needs a connection of its own: use transaction(), subscribe(), dedicated() or a new client',
                strtoupper((string) $arguments[0]),
            ));
        }

        return $this->shared()->execute($arguments);
    }

    /**
     * Several commands written back to back on the shared connection (no round trip between
     * them, no atomicity); their replies in order, error replies as values.
     *
     * @param list<list<string|int|float>> $commands
     *
     * @return list<mixed>
     */
    public function requestMany(array $commands): array
    {
        foreach ($commands as $command) {
            if ($command === [] || Commands::needsSession((string) $command[0]) || Commands::blockingTimeout($command) !== null) {
                throw new RedisError(sprintf('%s cannot run in a pipeline on the shared connection', strtoupper((string) ($command[0] ?? ''))));
            }
        }

        return $this->shared()->executeMany($commands);
    }

    /** An explicit pipeline: queue commands, exec() sends them at once. */
    public function pipeline(): Pipeline
    {
        return new Pipeline($this, false);
    }

    /**
     * MULTI…EXEC on a dedicated connection. With a callback, queues what it adds and returns
     * exec()'s result; without, returns the transaction to fill and exec().
     *
     * @param (callable(Pipeline): mixed)|null $callback
     *
     * @return Pipeline|list<mixed>|null null when a WATCHed key changed
     */
    public function transaction(?callable $callback = null): Pipeline|array|null
    {
        $transaction = new Pipeline($this, true);
        if ($callback === null) {
            return $transaction;
        }
        $callback($transaction);

        return $transaction->exec();
    }

    /**
     * Runs $callback with a dedicated connection (WATCH, MULTI…EXEC by hand) and returns it to
     * the pool afterwards.
     *
     * @template T
     *
     * @param callable(Lease): T $callback
     *
     * @return T
     */
    public function dedicated(callable $callback): mixed
    {
        $lease = $this->lease();
        try {
            return $callback($lease);
        } finally {
            $lease->release();
        }
    }

    /** A dedicated connection; the caller must release() it. */
    public function lease(): Lease
    {
        return new Lease($this->pool, $this->pool->acquire());
    }

    /** Subscribes to channels on a dedicated connection; iterate the result for messages. */
    public function subscribe(string ...$channels): Subscription
    {
        return $this->startSubscription('SUBSCRIBE', array_values($channels));
    }

    /** Subscribes to channel patterns on a dedicated connection. */
    public function psubscribe(string ...$patterns): Subscription
    {
        return $this->startSubscription('PSUBSCRIBE', array_values($patterns));
    }

    /** Connections open now: the shared one and the pool's. */
    public function connectionCount(): int
    {
        return ($this->shared !== null && !$this->shared->isBroken() ? 1 : 0) + $this->pool->size();
    }

    public function close(): void
    {
        $this->shared?->close();
        $this->shared = null;
        $this->pool->close();
    }

    /** @param list<string> $channels */
    private function startSubscription(string $command, array $channels): Subscription
    {
        if ($channels === []) {
            throw new RedisError($command . ' needs at least one channel');
        }
        $lease = $this->lease();
        try {
            return new Subscription($lease, $command, $channels);
        } catch (\Throwable $e) {
            $lease->release();
            throw $e;
        }
    }

    /** The shared connection, (re)connected once however many fibers ask at the same time. */
    /**
     * A blocking command's timeout passed and its reply has not come: a PING on the shared
     * connection wakes the server. Redis notices a blocked client's timeout only when its event
     * loop wakes, which an idle server does `hz` times a second (10 by default): without the PING,
     * a 1 s BLPOP on an empty list answers after 1.00 to 1.10 s, with any client. One PING at a
     * time, whatever the number of blocking commands that time out together.
     */
    private function wakeServer(): void
    {
        if ($this->waking) {
            return;
        }
        $this->waking = true;
        try {
            $this->shared()->execute(['PING']);
        } catch (\Throwable) {
            // The blocking command reports a connection problem of its own, if there is one.
        }
        $this->waking = false;
    }

    private function shared(): Connection
    {
        while (true) {
            $shared = $this->shared;
            if ($shared !== null && $shared->isAlive()) {
                return $shared;
            }
            if ($this->connecting === null) {
                break;
            }
            $suspension = EventLoop::getSuspension();
            $this->connecting[] = $suspension;
            $suspension->suspend();
        }
        $this->shared = null;
        $this->connecting = [];
        try {
            $this->shared = Connection::connect($this->config);

            return $this->shared;
        } finally {
            /** @var list<Suspension<mixed>> $waiting other fibers added themselves meanwhile */
            $waiting = $this->connecting;
            $this->connecting = null;
            foreach ($waiting as $suspension) {
                $suspension->resume();
            }
        }
    }
}
