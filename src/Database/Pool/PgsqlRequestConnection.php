<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

use Spindle\Database\Mysql\Connection;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\ResultStream;
use Spindle\Database\Pdo\DriverError;
use Spindle\Database\Pdo\PgsqlLink;
use Spindle\Database\Pdo\PgsqlPlaceholders;
use Spindle\Database\Pdo\PgsqlSession;

/**
 * The PostgreSQL side of a RequestConnection: what a Laravel `pgsql` connection's Pdo talks to
 * under `spindle serve`. Each request takes one of the worker's pooled sessions when it first
 * queries and gives it back, reset (PgsqlSession::resetSession(): ROLLBACK of what it left
 * open, DISCARD ALL, the connector's setup again), when it ends; what pdo_pgsql keeps per
 * connection (the last error, PGSQL_ATTR_DISABLE_PREPARES, the catalog names of
 * getColumnMeta()) is kept here, per Pdo, not on the session that serves it now.
 */
final class PgsqlRequestConnection implements PgsqlLink
{
    private ?DriverError $lastError = null;
    private bool $disablePrepares = false;
    private bool $closed = false;
    /** @var array<string, string|null> */
    private array $catalogNames = [];

    public function __construct(
        private readonly RequestConnection $requests,
        private readonly SessionBaseline $baseline,
    ) {
    }

    public function query(string $sql): array
    {
        return $this->command(fn (): array => $this->requests->query($sql));
    }

    public function queryStream(string $sql): ResultStream
    {
        return $this->command(fn (): ResultStream => $this->requests->queryStream($sql));
    }

    public function prepare(string $sql): PreparedStatement
    {
        [$numbered, $count] = PgsqlPlaceholders::number($sql);

        return $this->prepareNumbered($numbered, $count);
    }

    public function prepareNumbered(string $numbered, int $count): PreparedStatement
    {
        $disable = $this->disablePrepares;

        return $this->command(fn (): PreparedStatement => $this->requests->prepareWith(static function (Connection $session) use ($numbered, $count, $disable): PreparedStatement {
            \assert($session instanceof PgsqlSession);
            $session->setDisablePrepares($disable);

            return $session->prepareNumbered($numbered, $count);
        }));
    }

    public function execute(PreparedStatement $statement, array $params): array
    {
        return $this->command(fn (): array => $this->requests->execute($statement, $params));
    }

    public function executeStream(PreparedStatement $statement, array $params): ResultStream
    {
        return $this->command(fn (): ResultStream => $this->requests->executeStream($statement, $params));
    }

    public function closeStatement(PreparedStatement $statement): void
    {
        $this->requests->closeStatement($statement);
    }

    public function ping(): void
    {
        $this->command(fn () => $this->requests->ping());
    }

    public function serverVersion(): string
    {
        return $this->requests->serverVersion();
    }

    public function connectionId(): int
    {
        return $this->command(fn (): int => $this->requests->connectionId());
    }

    public function statusFlags(): int
    {
        return $this->requests->statusFlags();
    }

    public function isBroken(): bool
    {
        return $this->closed || $this->requests->isBroken();
    }

    public function close(): void
    {
        $this->closed = true;
        $this->requests->close();
    }

    public function cursorName(): string
    {
        return $this->withSession(static fn (PgsqlSession $session): string => $session->cursorName());
    }

    public function lastError(): ?DriverError
    {
        return $this->lastError;
    }

    public function setLastError(?DriverError $error): void
    {
        $this->lastError = $error;
    }

    public function disablesPrepares(): bool
    {
        return $this->disablePrepares;
    }

    public function setDisablePrepares(bool $disable): void
    {
        $this->disablePrepares = $disable;
    }

    /** As the session this request holds reported it, else as a new session of the pool did. */
    public function parameter(string $name): ?string
    {
        $session = $this->heldSession();
        if ($session !== null) {
            return $session->parameter($name);
        }
        if (!$this->baseline->isKnown()) {
            // Before the pool opened a session: one is opened (and given back) to learn them.
            $this->requests->serverVersion();
        }

        return $this->baseline->parameters[$name] ?? null;
    }

    public function withSession(\Closure $operation): mixed
    {
        return $this->command(fn (): mixed => $this->requests->withConnection(static function (Connection $session) use ($operation): mixed {
            \assert($session instanceof PgsqlSession);

            return $operation($session);
        }));
    }

    public function heldSession(): ?PgsqlSession
    {
        $session = $this->requests->heldConnection();

        return $session instanceof PgsqlSession ? $session : null;
    }

    public function catalogName(string $key, \Closure $lookup): ?string
    {
        if (\array_key_exists($key, $this->catalogNames)) {
            return $this->catalogNames[$key];
        }
        if (\count($this->catalogNames) >= 256) {
            $this->catalogNames = [];
        }

        return $this->catalogNames[$key] = $lookup();
    }

    /**
     * Runs a command, keeping the error it reports as pdo_pgsql keeps a connection's last one.
     *
     * @template T
     *
     * @param \Closure(): T $command
     *
     * @return T
     */
    private function command(\Closure $command): mixed
    {
        if ($this->closed) {
            $this->lastError = new DriverError(PgsqlSession::ERROR_CODE, 'no connection to the server');

            throw new MysqlException('no connection to the server', PgsqlSession::ERROR_CODE, '08006');
        }
        try {
            return $command();
        } catch (MysqlException $error) {
            $this->lastError = $error->errorCode === PgsqlSession::NO_ERROR_CODE
                ? new DriverError(null, '')
                : new DriverError(PgsqlSession::ERROR_CODE, $error->getMessage());

            throw $error;
        }
    }
}
