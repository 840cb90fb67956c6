<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Database\Pgsql\Protocol\CommandComplete;
use Spindle\Database\Pgsql\Protocol\Frontend;
use Spindle\Database\Pgsql\Protocol\Notification;
use Spindle\Database\Pgsql\Protocol\ProtocolError;
use Spindle\Database\Pgsql\Protocol\ReadyForQuery;
use Spindle\Database\Pgsql\Protocol\RowDescription;
use Spindle\Database\Pgsql\Protocol\ServerMessage;
use Spindle\Database\Pgsql\Protocol\TransactionStatus;

/**
 * One PostgreSQL session. Inside a fiber each call suspends only that fiber while it waits for
 * the server; outside a fiber it runs the event loop until the answer is there. One command at a
 * time: a fiber calling in while another waits gets a PgsqlException at once.
 *
 * Server errors (ErrorResponse) leave the session usable; a lost connection, a protocol error or
 * a FATAL error break it (isBroken(), and every later call fails). A query that outlives the
 * query timeout is cancelled (CancelRequest on a second socket) and fails with SQLSTATE 57014;
 * the session stays usable once the server confirmed the cancel.
 */
final class Connection
{
    private int $statementCounter = 0;
    private readonly Session $session;

    private function __construct(private readonly ConnectionConfig $config, Transport $transport)
    {
        $this->session = new Session($config, $transport);
    }

    /** @throws PgsqlException */
    public static function connect(ConnectionConfig $config): self
    {
        $deadline = $config->connectTimeout > 0 ? Session::now() + $config->connectTimeout : null;
        $transport = Transport::open($config, $deadline);
        $connection = new self($config, $transport);
        try {
            Startup::run($connection->session, $deadline);
        } catch (PgsqlException $e) {
            $tls = $connection->isTls();
            $connection->session->fail();
            if ($config->sslMode === SslMode::Prefer && $tls && $e->server !== null && !$connection->session->authenticated) {
                // As libpq: sslmode=prefer tries again without TLS when the server refused to
                // authenticate over TLS, and a second refusal reports both.
                try {
                    return self::connect($config->withSslMode(SslMode::Disable));
                } catch (PgsqlException $second) {
                    throw new PgsqlException($e->getMessage() . "\n" . $second->getMessage(), $second->sqlState, $second->server, $second);
                }
            }
            throw $e;
        } catch (ProtocolError $e) {
            $connection->session->fail();
            throw new PgsqlException(Transport::where($config) . ' failed: ' . $e->getMessage(), '08P01', null, $e);
        }

        return $connection;
    }

    // ---- commands ---------------------------------------------------------------------------

    /**
     * Simple query protocol: one or more statements separated by ";", text results. One Result
     * per statement, in order. The first error ends the batch (the statements before it stay
     * done only if they ran outside a transaction block). $phpTypes: int and bool columns come
     * as PHP int and bool (see Result).
     *
     * @return list<Result>
     *
     * @throws PgsqlException
     */
    public function query(string $sql, bool $phpTypes = false): array
    {
        try {
            return $this->session->command(Frontend::query($sql), $sql, [], $phpTypes);
        } finally {
            // COPY … TO STDOUT data belongs to copyTo(); here it is dropped.
            $this->session->copyOut = [];
        }
    }

    /**
     * Extended query protocol with the unnamed statement: one statement, parameters as $1, $2, …
     * (null, bool, int, float, string, Stringable), sent in one round trip.
     *
     * @param list<mixed> $params
     * @param bool        $binary results in binary format (decoded by Result::values())
     *
     * @throws PgsqlException
     */
    public function execute(string $sql, array $params = [], bool $binary = false): Result
    {
        [$values, $formats] = self::encodeParams($params);
        $bytes = Frontend::parse('', $sql)
            . Frontend::bind('', '', $values, $formats, $binary ? [1] : [])
            . Frontend::describeExecuteSync();
        $results = $this->session->command($bytes, $sql);

        return $results[0] ?? new Result([], [], '');
    }

    /**
     * Parses a named statement (Parse, Describe, Sync): its parameter types and columns.
     *
     * @param list<int> $typeOids parameter types; 0 or missing ones are inferred
     *
     * @throws PgsqlException
     */
    public function prepare(string $sql, ?string $name = null, array $typeOids = []): PreparedStatement
    {
        $name ??= 'spindle_' . ++$this->statementCounter;
        $this->session->describedTypes = [];
        $this->session->describedFields = [];
        $this->session->command(Frontend::parse($name, $sql, $typeOids) . Frontend::describe('S', $name) . Frontend::sync(), $sql);

        return new PreparedStatement($name, $sql, $this->session->describedTypes, $this->session->describedFields);
    }

    /**
     * Runs a prepared statement (Bind, Execute, Sync; Describe as well when $binary, so the
     * columns carry their formats).
     *
     * @param list<mixed> $params
     *
     * @throws PgsqlException
     */
    public function executePrepared(PreparedStatement $statement, array $params = [], bool $binary = false): Result
    {
        [$values, $formats] = self::encodeParams($params);
        $bytes = Frontend::bind('', $statement->name, $values, $formats, $binary ? [1] : [])
            . ($binary || $statement->fields === [] ? Frontend::describe('P', '') : '')
            . Frontend::execute() . Frontend::sync();
        $results = $this->session->command($bytes, $statement->sql, fields: $statement->fields);

        return $results[0] ?? new Result([], [], '');
    }

    /**
     * Sends frontend messages that end with Sync (Frontend's encoders) and reads the answer up to
     * ReadyForQuery: one Result per CommandComplete. For what the methods above do not cover
     * (a Parse, Bind, Describe and Execute in one round trip, portals, …). $fields are the
     * columns of rows that come without a RowDescription (no Describe sent). $phpTypes: int and
     * bool columns come as PHP int and bool (see Result).
     *
     * @param list<\Spindle\Database\Pgsql\Protocol\Field> $fields
     *
     * @return list<Result>
     *
     * @throws PgsqlException
     */
    public function exchange(string $messages, ?string $sql = null, array $fields = [], bool $phpTypes = false): array
    {
        return $this->session->command($messages, $sql, $fields, $phpTypes);
    }

    /**
     * Closes a named statement. Nothing waits: the Close goes out ahead of the next command (a
     * statement may be dropped in a destructor, where a fiber cannot suspend).
     */
    public function closeStatement(PreparedStatement $statement): void
    {
        $this->closeStatementNamed($statement->name);
    }

    /** closeStatement() by the statement's name. */
    public function closeStatementNamed(string $name): void
    {
        if (!$this->session->broken) {
            $this->session->deferred .= Frontend::close('S', $name);
        }
    }

    /**
     * Closes a cursor (a portal: DECLARE names one). As closeStatement(), nothing waits: the
     * Close goes out ahead of the next command.
     */
    public function closeCursor(string $name): void
    {
        if (!$this->session->broken) {
            $this->session->deferred .= Frontend::close('P', $name);
        }
    }

    /**
     * COPY … FROM STDIN: sends the chunks (lines in the COPY format) and returns the rows copied.
     *
     * @param iterable<string> $data
     *
     * @throws PgsqlException
     */
    public function copyFrom(string $sql, iterable $data): int
    {
        return CopyAndNotify::copyFrom($this->session, $sql, $data);
    }

    /**
     * COPY … TO STDOUT: the data the server sent, one chunk (usually a line) each.
     *
     * @return list<string>
     *
     * @throws PgsqlException
     */
    public function copyTo(string $sql): array
    {
        return CopyAndNotify::copyTo($this->session, $sql);
    }

    /**
     * LISTEN on a channel (quoted as an identifier).
     *
     * @throws PgsqlException
     */
    public function listen(string $channel): void
    {
        $this->query('LISTEN ' . self::quoteIdentifier($channel));
    }

    /**
     * NOTIFY arrivals, as they come: waiting for the next one suspends the calling fiber. The
     * iteration ends after $timeout seconds without one (null: never). While it waits the
     * connection is busy: give listening a connection of its own.
     *
     * @return \Generator<int, Notification>
     *
     * @throws PgsqlException
     */
    public function notifications(?float $timeout = null): \Generator
    {
        return CopyAndNotify::notifications($this->session, $timeout);
    }

    /**
     * The next NOTIFY arrival: one already received, else what the socket holds now, else the
     * first to come within $timeout seconds (0: no wait); null when none came.
     *
     * @throws PgsqlException
     */
    public function nextNotification(float $timeout = 0.0): ?Notification
    {
        return CopyAndNotify::nextNotification($this->session, $timeout);
    }

    /** Drops the notifications received and not yet read (a pooled session's reset). */
    public function forgetNotifications(): void
    {
        $this->session->notifications = [];
    }

    /**
     * Asks the server to cancel what this session runs (CancelRequest on a second connection).
     * Returns once the request is sent; the command fails with SQLSTATE 57014 if it was still
     * running.
     */
    public function cancel(): void
    {
        $this->session->cancel();
    }

    // ---- state ------------------------------------------------------------------------------

    public function transactionStatus(): TransactionStatus
    {
        return $this->session->status;
    }

    /** A server parameter the server reported (server_version, client_encoding, TimeZone, …). */
    public function parameter(string $name): ?string
    {
        return $this->session->parameters[$name] ?? null;
    }

    /** @return array<string, string> */
    public function parameters(): array
    {
        return $this->session->parameters;
    }

    public function processId(): int
    {
        return $this->session->key->processId ?? 0;
    }

    /** @return list<ServerMessage> the notices (NOTICE, WARNING, …) the last command raised */
    public function notices(): array
    {
        return $this->session->notices;
    }

    public function isTls(): bool
    {
        return $this->session->transport->isTls();
    }

    public function isBusy(): bool
    {
        return $this->session->busy;
    }

    public function isBroken(): bool
    {
        return $this->session->isBroken();
    }

    public function config(): ConnectionConfig
    {
        return $this->config;
    }

    public function close(): void
    {
        $session = $this->session;
        if ($session->busy) {
            throw new PgsqlException(Session::IN_PROGRESS, 'HY000');
        }
        if (!$session->broken && $session->transport->isOpen()) {
            $session->transport->writeNow(Frontend::terminate());
        }
        $session->broken = true;
        $session->transport->close();
    }

    public function __destruct()
    {
        $session = $this->session;
        if ($session->transport->isOpen() && !$session->busy) {
            if (!$session->broken) {
                $session->transport->writeNow(Frontend::terminate());
            }
            $session->transport->close();
        }
    }

    public static function quoteIdentifier(string $name): string
    {
        return '"' . str_replace('"', '""', $name) . '"';
    }

    /**
     * Parameters as text (null stays null, bool is t/f, float keeps every digit), a Bytea as
     * binary; with the format codes for Bind (none when all are text).
     *
     * @param list<mixed> $params
     *
     * @return array{list<string|null>, list<int>}
     */
    public static function encodeParams(array $params): array
    {
        $encoded = [];
        $formats = [];
        $binary = false;
        foreach ($params as $param) {
            if ($param instanceof Bytea) {
                $encoded[] = $param->bytes;
                $formats[] = 1;
                $binary = true;
                continue;
            }
            $formats[] = 0;
            $encoded[] = match (true) {
                $param === null => null,
                \is_bool($param) => $param ? 't' : 'f',
                \is_int($param), \is_string($param) => (string) $param,
                \is_float($param) => is_nan($param) ? 'NaN' : (is_infinite($param) ? ($param > 0 ? 'Infinity' : '-Infinity') : var_export($param, true)),
                $param instanceof \Stringable => (string) $param,
                default => throw new \InvalidArgumentException(sprintf('A PostgreSQL parameter must be null, bool, int, float, string or Bytea, %s given', get_debug_type($param))),
            };
        }

        return [$encoded, $binary ? $formats : []];
    }
}
