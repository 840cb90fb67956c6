<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\SocketConnection;

/**
 * A new session while a framework sets it up through a Pdo of its own (Laravel's connector: `use`,
 * `set names`, `time_zone`, `sql_mode`): what runs is recorded, so that the pool can run it again
 * after every reset (SocketConnection::rememberSetup()). handOver() then takes the session away
 * from that Pdo, whose end no longer closes it.
 *
 * The setup's statements are run again as text: a setup statement with parameters is refused.
 */
final class SessionSetup implements Connection
{
    /** @var list<string> */
    private array $statements = [];
    private bool $handedOver = false;

    public function __construct(private readonly SocketConnection $connection)
    {
    }

    /** The session, set up, with its setup remembered; this wrapper lets go of it. */
    public function handOver(): SocketConnection
    {
        $this->handedOver = true;
        $this->connection->rememberSetup($this->statements);

        return $this->connection;
    }

    public function query(string $sql): array
    {
        $results = $this->connection->query($sql);
        $this->statements[] = $sql;

        return $results;
    }

    public function prepare(string $sql): PreparedStatement
    {
        return $this->connection->prepare($sql);
    }

    public function execute(PreparedStatement $statement, array $params): array
    {
        if ($params !== []) {
            throw new \LogicException('A pooled database session is set up by statements without parameters (they run again as text after each reset): ' . $statement->sql);
        }
        $results = $this->connection->execute($statement, $params);
        $this->statements[] = $statement->sql;

        return $results;
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        $this->connection->closeStatement($statement);
    }

    public function ping(): void
    {
        $this->connection->ping();
    }

    public function serverVersion(): string
    {
        return $this->connection->serverVersion();
    }

    public function connectionId(): int
    {
        return $this->connection->connectionId();
    }

    public function statusFlags(): int
    {
        return $this->connection->statusFlags();
    }

    public function isBroken(): bool
    {
        return $this->handedOver || $this->connection->isBroken();
    }

    /** Closes the session, unless it was handed over to the pool. */
    public function close(): void
    {
        if (!$this->handedOver) {
            $this->connection->close();
        }
    }
}
