<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Result;

use function Spindle\delay;

/**
 * The one in-memory Connection of the tests (the PDO driver's, the pool's, the Doctrine
 * driver's), held to the same contract as SocketConnection by ConnectionContract.
 *
 * - Answers query()/execute() from a script of Results and MysqlExceptions (willReturn(),
 *   willFail(); an OK when the script is empty) and prepare() from willPrepare() (else a
 *   statement with one parameter per "?").
 * - BEGIN / START TRANSACTION / COMMIT / ROLLBACK toggle the in-transaction status flag like a
 *   server; a scripted result with a status replaces the status.
 * - Records everything: $log (SQL, "PING", "PREPARE …", "EXECUTE n", "CLOSE n"), $queries,
 *   $prepared, $executions, $closedStatements.
 * - Every command can take a while ($latency: it suspends the calling fiber), and failures can
 *   be set up: $breakOnNextCommand (2013, then broken), $failRollback, $failPing.
 * - The sharing detector: "CLAIM" marks the calling fiber as the holder until "UNCLAIM"; a claim
 *   or any command from another fiber meanwhile, and two commands running at once, are recorded
 *   in $violations.
 */
final class FakeConnection implements Connection
{
    public const IN_TRANS = 1;
    public const AUTOCOMMIT = 2;
    public const NO_BACKSLASH_ESCAPES = 512;

    /** @var list<string> every command received, SQL or "PING" / "PREPARE …" / "EXECUTE n" / "CLOSE n" */
    public array $log = [];
    /** @var list<string> SQL received by query() */
    public array $queries = [];
    /** @var list<string> SQL received by prepare() */
    public array $prepared = [];
    /** @var list<array{int, list<mixed>}> statement id and parameters received by execute() */
    public array $executions = [];
    /** @var list<int> ids of closed statements */
    public array $closedStatements = [];
    /** @var list<string> */
    public array $violations = [];
    public int $status = self::AUTOCOMMIT;
    public bool $broken = false;
    public bool $closed = false;
    public string $version = '10.11.6-MariaDB-0+deb12u1';
    public float $latency = 0.0;
    /** The next command fails as a lost connection (error 2013) and breaks the connection. */
    public bool $breakOnNextCommand = false;
    /** ROLLBACK fails with a server error. */
    public bool $failRollback = false;
    /** ping() fails as a dropped connection. */
    public bool $failPing = false;
    /** runs inside query()/execute() before answering (to suspend a fiber, for instance) */
    public ?\Closure $during = null;

    /** @var list<list<Result>|MysqlException> */
    private array $answers = [];
    /** @var list<PreparedStatement|MysqlException> */
    private array $prepareAnswers = [];
    private int $nextStatementId = 1;
    /** @var \Fiber<mixed, mixed, mixed, mixed>|null */
    private ?\Fiber $holder = null;
    /** @var \Fiber<mixed, mixed, mixed, mixed>|null */
    private ?\Fiber $running = null;
    private bool $runningOutsideFiber = false;

    public function __construct(public readonly int $id = 42)
    {
    }

    /** Queues the answer to the next query() or execute(): these results, or an OK. */
    public function willReturn(Result ...$results): self
    {
        $this->answers[] = $results === [] ? [new Result()] : array_values($results);

        return $this;
    }

    public function willFail(int $code, string $message, string $sqlState = 'HY000'): self
    {
        $this->answers[] = new MysqlException($message, $code, $sqlState);

        return $this;
    }

    /** Queues the answer to the next prepare() (by default one is made up, counting "?"). */
    public function willPrepare(PreparedStatement|MysqlException $answer): self
    {
        $this->prepareAnswers[] = $answer;

        return $this;
    }

    /**
     * A result set. Columns are names (VAR_STRING of table "t") or ColumnDefinitions. A status of
     * 0 leaves the connection's status flags as they are.
     *
     * @param list<string|ColumnDefinition> $columns
     * @param list<list<int|float|string|null>> $rows
     */
    public static function rows(array $columns, array $rows, int $status = 0): Result
    {
        $definitions = array_map(static fn (string|ColumnDefinition $c): ColumnDefinition => \is_string($c) ? self::column($c) : $c, $columns);

        return new Result($definitions, $rows, statusFlags: $status);
    }

    public static function ok(int $affectedRows = 0, int|string $lastInsertId = 0, int $status = 0): Result
    {
        return new Result([], [], $affectedRows, $lastInsertId, statusFlags: $status);
    }

    public static function column(string $name, int $type = 253, string $table = 't', int $flags = 0, int $length = 1020, int $decimals = 0): ColumnDefinition
    {
        return new ColumnDefinition('def', 'app', $table, $table, $name, $name, 45, $length, $type, $flags, $decimals);
    }

    public function query(string $sql): array
    {
        $this->command($sql);
        $this->queries[] = $sql;
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

        return $this->answer();
    }

    public function prepare(string $sql): PreparedStatement
    {
        $this->command('PREPARE ' . $sql);
        $this->prepared[] = $sql;
        $answer = array_shift($this->prepareAnswers);
        if ($answer instanceof MysqlException) {
            throw $answer;
        }
        if ($answer !== null) {
            return $answer;
        }
        $params = array_fill(0, substr_count($sql, '?'), self::column('?'));

        return new PreparedStatement($this->nextStatementId++, $sql, $params, []);
    }

    public function execute(PreparedStatement $statement, array $params): array
    {
        $this->command('EXECUTE ' . $statement->id);
        $this->executions[] = [$statement->id, $params];

        return $this->answer();
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        if (!$this->isBroken()) {
            $this->log[] = 'CLOSE ' . $statement->id;
            $this->closedStatements[] = $statement->id;
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
        return $this->version;
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

    /** @return non-empty-list<Result> */
    private function answer(): array
    {
        if ($this->during !== null) {
            ($this->during)();
        }
        $answer = array_shift($this->answers) ?? [new Result()];
        if ($answer instanceof MysqlException) {
            throw $answer;
        }
        $last = $answer[\count($answer) - 1];
        if ($last->statusFlags !== 0) {
            // A scripted status replaces the current one (0 leaves it as it is).
            $this->status = $last->statusFlags;
        }
        \assert($answer !== []);

        return $answer;
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
