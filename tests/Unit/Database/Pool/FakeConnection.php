<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pool;

use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Result;

use function Spindle\delay;

/**
 * An in-memory Connection for the pool tests. Every command can take a while (it suspends the
 * calling fiber for $latency seconds), BEGIN / START TRANSACTION / COMMIT / ROLLBACK toggle the
 * in-transaction status flag like a server would, and failures are scripted.
 *
 * The sharing detector: "CLAIM" marks the calling fiber as the holder until "UNCLAIM"; a claim
 * or any command from another fiber meanwhile, and two commands running at once, are recorded in
 * $violations.
 */
final class FakeConnection implements Connection
{
    public const IN_TRANS = 1;
    public const AUTOCOMMIT = 2;

    /** @var list<string> every command received, SQL or "PING" / "PREPARE …" / "EXECUTE n" / "CLOSE n" */
    public array $log = [];
    /** @var list<string> */
    public array $violations = [];
    public int $status = self::AUTOCOMMIT;
    public bool $broken = false;
    public bool $closed = false;
    public float $latency = 0.0;
    /** The next command fails as a lost connection (error 2013) and breaks the connection. */
    public bool $breakOnNextCommand = false;
    /** ROLLBACK fails with a server error. */
    public bool $failRollback = false;
    /** ping() fails as a dropped connection. */
    public bool $failPing = false;

    /** @var \Fiber<mixed, mixed, mixed, mixed>|null */
    private ?\Fiber $holder = null;
    /** @var \Fiber<mixed, mixed, mixed, mixed>|null */
    private ?\Fiber $running = null;
    private bool $runningOutsideFiber = false;
    private int $nextStatement = 1;

    public function __construct(public readonly int $id)
    {
    }

    public function query(string $sql): array
    {
        $this->command($sql);
        $verb = strtoupper(trim($sql));
        if ($verb === 'BEGIN' || $verb === 'START TRANSACTION') {
            $this->status |= self::IN_TRANS;
        } elseif ($verb === 'COMMIT') {
            $this->status &= ~self::IN_TRANS;
        } elseif ($verb === 'ROLLBACK') {
            if ($this->failRollback) {
                throw new MysqlException('Rollback refused', 1180);
            }
            $this->status &= ~self::IN_TRANS;
        } elseif ($verb === 'CLAIM') {
            if ($this->holder !== null && $this->holder !== \Fiber::getCurrent()) {
                $this->violations[] = "connection {$this->id} claimed while another fiber holds it";
            }
            $this->holder = \Fiber::getCurrent();
        } elseif ($verb === 'UNCLAIM') {
            $this->holder = null;
        }

        return [new Result(statusFlags: $this->status)];
    }

    public function prepare(string $sql): PreparedStatement
    {
        $this->command('PREPARE ' . $sql);

        return new PreparedStatement($this->nextStatement++, $sql, [], []);
    }

    public function execute(PreparedStatement $statement, array $params): array
    {
        $this->command('EXECUTE ' . $statement->id);

        return [new Result(statusFlags: $this->status)];
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        if (!$this->isBroken()) {
            $this->log[] = 'CLOSE ' . $statement->id;
        }
    }

    public function ping(): void
    {
        if ($this->failPing) {
            $this->broken = true;
            throw new MysqlException('MySQL server has gone away', 2006);
        }
        $this->command('PING');
    }

    public function serverVersion(): string
    {
        return '10.11.6-MariaDB';
    }

    public function connectionId(): int
    {
        return $this->id;
    }

    public function statusFlags(): int
    {
        return $this->status;
    }

    public function isBroken(): bool
    {
        return $this->broken || $this->closed;
    }

    public function close(): void
    {
        $this->closed = true;
    }

    public function inTransaction(): bool
    {
        return ($this->status & self::IN_TRANS) !== 0;
    }

    private function command(string $what): void
    {
        if ($this->isBroken()) {
            throw new MysqlException('MySQL server has gone away', 2006);
        }
        $fiber = \Fiber::getCurrent();
        if ($this->running !== null || $this->runningOutsideFiber) {
            $this->violations[] = "connection {$this->id}: \"$what\" while another command runs";
        }
        if ($this->holder !== null && $this->holder !== $fiber) {
            $this->violations[] = "connection {$this->id}: \"$what\" from a fiber that does not hold it";
        }
        $this->log[] = $what;
        if ($this->breakOnNextCommand) {
            $this->breakOnNextCommand = false;
            $this->broken = true;
            throw new MysqlException('Lost connection to MySQL server during query', 2013);
        }
        if ($this->latency > 0) {
            $this->running = $fiber;
            $this->runningOutsideFiber = $fiber === null;
            try {
                delay($this->latency);
            } finally {
                $this->running = null;
                $this->runningOutsideFiber = false;
            }
        }
    }
}
