<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\ResultStream;
use Spindle\Database\Pdo\DriverError;
use Spindle\Database\Pdo\PgsqlLink;
use Spindle\Database\Pdo\PgsqlSession;

/**
 * A new PostgreSQL session while a framework sets it up through a Pdo of its own (Laravel's
 * connector: `set names`, `set time zone`, `set search_path to`, `set application_name`, the
 * isolation level): what runs is recorded, so that the pool can run it again after every reset
 * (PgsqlSession::rememberSetup()). handOver() then takes the session away from that Pdo, whose
 * end no longer closes it. SessionSetup is the same for MySQL.
 *
 * The setup's statements are run again as text: a setup statement with parameters is refused.
 */
final class PgsqlSessionSetup implements PgsqlLink
{
    /** @var list<string> */
    private array $statements = [];
    private bool $handedOver = false;

    public function __construct(private readonly PgsqlSession $session)
    {
    }

    /** The session, set up, with its setup remembered; this wrapper lets go of it. */
    public function handOver(): PgsqlSession
    {
        $this->handedOver = true;
        $this->session->rememberSetup($this->statements);

        return $this->session;
    }

    public function query(string $sql): array
    {
        $results = $this->session->query($sql);
        $this->statements[] = $sql;

        return $results;
    }

    public function queryStream(string $sql): ResultStream
    {
        $stream = $this->session->queryStream($sql);
        $this->statements[] = $sql;

        return $stream;
    }

    public function prepare(string $sql): PreparedStatement
    {
        return $this->session->prepare($sql);
    }

    public function prepareNumbered(string $numbered, int $count): PreparedStatement
    {
        return $this->session->prepareNumbered($numbered, $count);
    }

    public function execute(PreparedStatement $statement, array $params): array
    {
        self::withoutParameters($statement, $params);
        $results = $this->session->execute($statement, $params);
        $this->statements[] = $statement->sql;

        return $results;
    }

    public function executeStream(PreparedStatement $statement, array $params): ResultStream
    {
        self::withoutParameters($statement, $params);
        $stream = $this->session->executeStream($statement, $params);
        $this->statements[] = $statement->sql;

        return $stream;
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        $this->session->closeStatement($statement);
    }

    public function ping(): void
    {
        $this->session->ping();
    }

    public function serverVersion(): string
    {
        return $this->session->serverVersion();
    }

    public function connectionId(): int
    {
        return $this->session->connectionId();
    }

    public function statusFlags(): int
    {
        return $this->session->statusFlags();
    }

    public function isBroken(): bool
    {
        return $this->handedOver || $this->session->isBroken();
    }

    /** Closes the session, unless it was handed over to the pool. */
    public function close(): void
    {
        if (!$this->handedOver) {
            $this->session->close();
        }
    }

    public function cursorName(): string
    {
        return $this->session->cursorName();
    }

    public function lastError(): ?DriverError
    {
        return $this->session->lastError();
    }

    public function setLastError(?DriverError $error): void
    {
        $this->session->setLastError($error);
    }

    public function disablesPrepares(): bool
    {
        return $this->session->disablesPrepares();
    }

    public function setDisablePrepares(bool $disable): void
    {
        $this->session->setDisablePrepares($disable);
    }

    public function parameter(string $name): ?string
    {
        return $this->session->parameter($name);
    }

    public function withSession(\Closure $operation): mixed
    {
        return $operation($this->session);
    }

    public function heldSession(): PgsqlSession
    {
        return $this->session;
    }

    public function catalogName(string $key, \Closure $lookup): ?string
    {
        return $this->session->catalogName($key, $lookup);
    }

    /** @param list<mixed> $params */
    private static function withoutParameters(PreparedStatement $statement, array $params): void
    {
        if ($params !== []) {
            throw new \LogicException('A pooled database session is set up by statements without parameters (they run again as text after each reset): ' . $statement->sql);
        }
    }
}
