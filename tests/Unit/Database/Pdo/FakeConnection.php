<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Result;

/**
 * An in-memory Connection: answers query()/execute() from a script of Results and
 * MysqlExceptions (an OK Result when the script is empty), and records every SQL text, prepare
 * and parameter list it receives. START TRANSACTION / COMMIT / ROLLBACK toggle the in-transaction
 * status flag like a server would.
 */
final class FakeConnection implements Connection
{
    public const IN_TRANS = 1;
    public const AUTOCOMMIT = 2;
    public const NO_BACKSLASH_ESCAPES = 512;

    /** @var list<string> SQL received by query() */
    public array $queries = [];
    /** @var list<string> SQL received by prepare() */
    public array $prepared = [];
    /** @var list<array{int, list<mixed>}> statement id and parameters received by execute() */
    public array $executions = [];
    /** @var list<int> ids of closed statements */
    public array $closedStatements = [];
    public int $status = self::AUTOCOMMIT;
    public bool $broken = false;
    public bool $closed = false;
    public string $version = '10.11.6-MariaDB-0+deb12u1';
    /** runs inside query()/execute() before answering (to suspend a fiber, for instance) */
    public ?\Closure $during = null;

    /** @var list<list<Result>|MysqlException> */
    private array $answers = [];
    /** @var list<PreparedStatement|MysqlException> */
    private array $prepareAnswers = [];
    private int $nextStatementId = 1;

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
        $this->queries[] = $sql;
        $this->transactionStatus($sql);

        return $this->answer();
    }

    public function prepare(string $sql): PreparedStatement
    {
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
        $this->executions[] = [$statement->id, $params];

        return $this->answer();
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        $this->closedStatements[] = $statement->id;
    }

    public function ping(): void
    {
    }

    public function serverVersion(): string
    {
        return $this->version;
    }

    public function connectionId(): int
    {
        return 42;
    }

    public function statusFlags(): int
    {
        return $this->status;
    }

    public function isBroken(): bool
    {
        return $this->broken;
    }

    public function close(): void
    {
        $this->closed = true;
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

    private function transactionStatus(string $sql): void
    {
        $verb = strtoupper(trim($sql));
        if ($verb === 'START TRANSACTION') {
            $this->status |= self::IN_TRANS;
        } elseif ($verb === 'COMMIT' || $verb === 'ROLLBACK') {
            $this->status &= ~self::IN_TRANS;
        }
    }
}
