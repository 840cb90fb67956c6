<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Spindle\Loop\WaitQueue;

/**
 * @internal The dedicated connections of a client: blocking commands, transactions and
 * subscriptions hold one for their duration. At most $config->poolSize exist; a fiber asking for
 * one more waits until another is returned.
 */
final class ConnectionPool
{
    /** @var list<Connection> */
    private array $idle = [];
    private int $open = 0;
    /** @var WaitQueue<null> a grant means: a connection may be free now, look again */
    private readonly WaitQueue $waiting;

    public function __construct(private readonly RedisConfig $config)
    {
        $this->waiting = new WaitQueue();
    }

    /** @throws RedisException */
    public function acquire(): Connection
    {
        while (true) {
            while ($this->idle !== []) {
                $connection = array_pop($this->idle);
                if ($connection->isAlive()) {
                    return $connection;
                }
                --$this->open;
            }
            if ($this->open < $this->config->poolSize) {
                ++$this->open;
                try {
                    return Connection::connect($this->config);
                } catch (\Throwable $e) {
                    --$this->open;
                    $this->wakeOne();
                    throw $e;
                }
            }
            // A wake-up meant for a fiber that left its wait goes to the next one.
            $this->waiting->wait(unclaimed: $this->wakeOne(...));
        }
    }

    /** Takes a connection back; a broken one, or one left in a session state ($clean false), is closed. */
    public function release(Connection $connection, bool $clean = true): void
    {
        if ($clean && !$connection->isBroken() && !$connection->isBusy() && !$connection->isSubscriber()) {
            $this->idle[] = $connection;
        } else {
            $connection->close();
            --$this->open;
        }
        $this->wakeOne();
    }

    /** Connections open now (idle or lent). */
    public function size(): int
    {
        return $this->open;
    }

    public function close(): void
    {
        foreach ($this->idle as $connection) {
            $connection->close();
        }
        $this->open -= \count($this->idle);
        $this->idle = [];
    }

    private function wakeOne(): void
    {
        $this->waiting->grant(null);
    }
}
