<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Database\Pgsql\Protocol\Authentication;
use Spindle\Database\Pgsql\Protocol\BackendKeyData;
use Spindle\Database\Pgsql\Protocol\CommandComplete;
use Spindle\Database\Pgsql\Protocol\CopyData;
use Spindle\Database\Pgsql\Protocol\CopyResponse;
use Spindle\Database\Pgsql\Protocol\DataRow;
use Spindle\Database\Pgsql\Protocol\Frontend;
use Spindle\Database\Pgsql\Protocol\MessageReader;
use Spindle\Database\Pgsql\Protocol\MessageType;
use Spindle\Database\Pgsql\Protocol\Notification;
use Spindle\Database\Pgsql\Protocol\ParameterDescription;
use Spindle\Database\Pgsql\Protocol\ParameterStatus;
use Spindle\Database\Pgsql\Protocol\ProtocolError;
use Spindle\Database\Pgsql\Protocol\ReadyForQuery;
use Spindle\Database\Pgsql\Protocol\RowDescription;
use Spindle\Database\Pgsql\Protocol\ServerMessage;
use Spindle\Database\Pgsql\Protocol\Signal;
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
    private const IN_PROGRESS = 'another command is already in progress';

    private MessageReader $reader;
    private bool $busy = false;
    private bool $broken = false;
    private TransactionStatus $status = TransactionStatus::Idle;
    private ?BackendKeyData $key = null;
    /** @var array<string, string> */
    private array $parameters = [];
    /** @var list<Notification> */
    private array $notifications = [];
    /** @var list<ServerMessage> notices of the last command */
    private array $notices = [];
    /** @var list<string> COPY TO data of the last command */
    private array $copyOut = [];
    /** @var iterable<string>|null data for the COPY FROM in progress */
    private ?iterable $copyIn = null;
    private int $statementCounter = 0;
    /** Whether the server accepted the credentials (AuthenticationOk). */
    private bool $authenticated = false;
    /** Close messages to send ahead of the next command (their CloseComplete answers are skipped). */
    private string $deferred = '';
    /** @var list<int> what the last statement Describe told */
    private array $describedTypes = [];
    /** @var list<\Spindle\Database\Pgsql\Protocol\Field> */
    private array $describedFields = [];

    private function __construct(private readonly ConnectionConfig $config, private Transport $transport)
    {
        $this->reader = new MessageReader();
    }

    /** @throws PgsqlException */
    public static function connect(ConnectionConfig $config): self
    {
        $deadline = $config->connectTimeout > 0 ? self::now() + $config->connectTimeout : null;
        $transport = Transport::open($config, $deadline);
        $connection = new self($config, $transport);
        try {
            $connection->startup($deadline);
        } catch (PgsqlException $e) {
            $tls = $connection->isTls();
            $connection->fail();
            if ($config->sslMode === SslMode::Prefer && $tls && $e->server !== null && !$connection->authenticated) {
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
            $connection->fail();
            throw new PgsqlException(Transport::where($config) . ' failed: ' . $e->getMessage(), '08P01', null, $e);
        }

        return $connection;
    }

    // ---- commands ---------------------------------------------------------------------------

    /**
     * Simple query protocol: one or more statements separated by ";", text results. One Result
     * per statement, in order. The first error ends the batch (the statements before it stay
     * done only if they ran outside a transaction block).
     *
     * @return list<Result>
     *
     * @throws PgsqlException
     */
    public function query(string $sql): array
    {
        try {
            return $this->command(Frontend::query($sql), $sql);
        } finally {
            // COPY … TO STDOUT data belongs to copyTo(); here it is dropped.
            $this->copyOut = [];
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
            . Frontend::describe('P', '') . Frontend::execute() . Frontend::sync();
        $results = $this->command($bytes, $sql);

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
        $this->describedTypes = [];
        $this->describedFields = [];
        $this->command(Frontend::parse($name, $sql, $typeOids) . Frontend::describe('S', $name) . Frontend::sync(), $sql);

        return new PreparedStatement($name, $sql, $this->describedTypes, $this->describedFields);
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
        $results = $this->command($bytes, $statement->sql, fields: $statement->fields);

        return $results[0] ?? new Result([], [], '');
    }

    /**
     * Sends frontend messages that end with Sync (Frontend's encoders) and reads the answer up to
     * ReadyForQuery: one Result per CommandComplete. For what the methods above do not cover
     * (a Parse, Bind, Describe and Execute in one round trip, portals, …). $fields are the
     * columns of rows that come without a RowDescription (no Describe sent).
     *
     * @param list<\Spindle\Database\Pgsql\Protocol\Field> $fields
     *
     * @return list<Result>
     *
     * @throws PgsqlException
     */
    public function exchange(string $messages, ?string $sql = null, array $fields = []): array
    {
        return $this->command($messages, $sql, $fields);
    }

    /**
     * Closes a named statement. Nothing waits: the Close goes out ahead of the next command (a
     * statement may be dropped in a destructor, where a fiber cannot suspend).
     */
    public function closeStatement(PreparedStatement $statement): void
    {
        if (!$this->broken) {
            $this->deferred .= Frontend::close('S', $statement->name);
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
        $this->copyIn = $data;
        try {
            $results = $this->command(Frontend::query($sql), $sql);
        } finally {
            $this->copyIn = null;
        }

        return ($results[\count($results) - 1] ?? new Result([], [], ''))->affectedRows();
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
        $this->copyOut = [];
        $this->command(Frontend::query($sql), $sql);
        $data = $this->copyOut;
        $this->copyOut = [];

        return $data;
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
        while (true) {
            while ($this->notifications !== []) {
                yield array_shift($this->notifications);
            }
            $this->enter();
            $this->busy = true;
            try {
                $deadline = $timeout === null ? null : self::now() + $timeout;
                $data = $this->transport->read($deadline);
                if ($data === '') {
                    return;
                }
                $this->reader->push($data);
                while (($message = $this->reader->next()) !== null) {
                    $this->background($message);
                }
            } catch (PgsqlException|ProtocolError $e) {
                $this->fail();
                throw $e instanceof PgsqlException ? $e : new PgsqlException($e->getMessage(), '08P01', null, $e);
            } finally {
                $this->busy = false;
            }
        }
    }

    /**
     * The next NOTIFY arrival: one already received, else what the socket holds now, else the
     * first to come within $timeout seconds (0: no wait); null when none came.
     *
     * @throws PgsqlException
     */
    public function nextNotification(float $timeout = 0.0): ?Notification
    {
        if ($this->notifications === []) {
            $this->enter();
            try {
                $data = $this->transport->readNow();
                if ($data !== '') {
                    $this->reader->push($data);
                    while (($message = $this->reader->next()) !== null) {
                        $this->background($message);
                    }
                }
            } catch (PgsqlException|ProtocolError $e) {
                $this->fail();
                throw $e instanceof PgsqlException ? $e : new PgsqlException($e->getMessage(), '08P01', null, $e);
            }
        }
        if ($this->notifications === [] && $timeout > 0) {
            foreach ($this->notifications($timeout) as $notification) {
                return $notification;
            }

            return null;
        }

        return array_shift($this->notifications);
    }

    /**
     * Asks the server to cancel what this session runs (CancelRequest on a second connection).
     * Returns once the request is sent; the command fails with SQLSTATE 57014 if it was still
     * running.
     */
    public function cancel(): void
    {
        if ($this->key === null) {
            return;
        }
        try {
            $deadline = self::now() + 5.0;
            $canceller = Transport::open($this->config, $deadline);
            try {
                $canceller->write(Frontend::cancelRequest($this->key->processId, $this->key->secretKey), $deadline);
                // The server closes the connection once it has read the request.
                try {
                    $canceller->read($deadline);
                } catch (PgsqlException) {
                }
            } finally {
                $canceller->close();
            }
        } catch (PgsqlException) {
            // Best effort: the command may have finished already.
        }
    }

    // ---- state ------------------------------------------------------------------------------

    public function transactionStatus(): TransactionStatus
    {
        return $this->status;
    }

    /** A server parameter the server reported (server_version, client_encoding, TimeZone, …). */
    public function parameter(string $name): ?string
    {
        return $this->parameters[$name] ?? null;
    }

    /** @return array<string, string> */
    public function parameters(): array
    {
        return $this->parameters;
    }

    public function processId(): int
    {
        return $this->key->processId ?? 0;
    }

    /** @return list<ServerMessage> the notices (NOTICE, WARNING, …) the last command raised */
    public function notices(): array
    {
        return $this->notices;
    }

    public function isTls(): bool
    {
        return $this->transport->isTls();
    }

    public function isBusy(): bool
    {
        return $this->busy;
    }

    public function isBroken(): bool
    {
        return $this->broken || !$this->transport->isOpen();
    }

    public function config(): ConnectionConfig
    {
        return $this->config;
    }

    public function close(): void
    {
        if ($this->busy) {
            throw new PgsqlException(self::IN_PROGRESS, 'HY000');
        }
        if (!$this->broken && $this->transport->isOpen()) {
            $this->transport->writeNow(Frontend::terminate());
        }
        $this->broken = true;
        $this->transport->close();
    }

    public function __destruct()
    {
        if ($this->transport->isOpen() && !$this->busy) {
            if (!$this->broken) {
                $this->transport->writeNow(Frontend::terminate());
            }
            $this->transport->close();
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

    // ---- the conversation -------------------------------------------------------------------

    private function startup(?float $deadline): void
    {
        $config = $this->config;
        if ($config->sslMode !== SslMode::Disable && !$config->isUnixSocket()) {
            $this->send(Frontend::sslRequest(), $deadline, true);
            $answer = null;
            while ($answer === null) {
                $this->receive($deadline, true);
                $answer = $this->reader->sslAnswer();
            }
            if ($answer) {
                if ($this->reader->buffered() > 0) {
                    throw new PgsqlException('received unencrypted data after SSL response', '08P01');
                }
                $this->transport->enableTls($this->tlsOptions(), $deadline);
            } elseif ($config->sslMode !== SslMode::Prefer) {
                throw new PgsqlException(Transport::where($config) . ' failed: server does not support SSL, but SSL was required', '08001');
            }
        }
        $parameters = ['user' => $config->user, 'database' => $config->database ?? $config->user, 'client_encoding' => 'UTF8']
            + $config->parameters;
        $this->send(Frontend::startup($parameters), $deadline, true);
        $scram = null;
        while (true) {
            $message = $this->nextMessage($deadline, true);
            if ($message instanceof Authentication) {
                switch ($message->code) {
                    case Authentication::OK:
                        $this->authenticated = true;
                        break;
                    case Authentication::CLEARTEXT:
                        $this->send(Frontend::password($config->password), $deadline, true);
                        break;
                    case Authentication::MD5:
                        $this->send(Frontend::password(Protocol\Md5Password::hash($config->user, $config->password, $message->data)), $deadline, true);
                        break;
                    case Authentication::SASL:
                        if (!\in_array(Protocol\Scram::MECHANISM, $message->mechanisms(), true)) {
                            throw new PgsqlException(Transport::where($config) . ' failed: none of the server\'s SASL authentication mechanisms are supported', '08001');
                        }
                        $scram = new Protocol\Scram($config->password);
                        $this->send(Frontend::saslInitialResponse(Protocol\Scram::MECHANISM, $scram->clientFirst()), $deadline, true);
                        break;
                    case Authentication::SASL_CONTINUE:
                        if ($scram === null) {
                            throw new ProtocolError('SASL continuation without a SASL exchange');
                        }
                        $this->send(Frontend::saslResponse($scram->clientFinal($message->data)), $deadline, true);
                        break;
                    case Authentication::SASL_FINAL:
                        if ($scram === null) {
                            throw new ProtocolError('SASL final message without a SASL exchange');
                        }
                        $scram->verifyServerFinal($message->data);
                        break;
                    default:
                        throw new PgsqlException(sprintf('%s failed: authentication method requested by the server (%d) is not supported', Transport::where($config), $message->code), '08001');
                }
                continue;
            }
            if ($message instanceof ServerMessage && $message->isError) {
                throw new PgsqlException(Transport::where($config) . ' failed: ' . $message->severity() . ':  ' . $message->message(), $message->sqlState() === '28P01' || $message->sqlState() === '28000' ? '08006' : $message->sqlState(), $message);
            }
            if ($message instanceof ReadyForQuery) {
                $this->status = $message->status;

                return;
            }
            $this->background($message);
        }
    }

    /** @return array<string, mixed> */
    private function tlsOptions(): array
    {
        $config = $this->config;
        $verify = $config->sslMode === SslMode::VerifyCa || $config->sslMode === SslMode::VerifyFull;
        $options = [
            'verify_peer' => $verify,
            'verify_peer_name' => $config->sslMode === SslMode::VerifyFull,
            'allow_self_signed' => !$verify,
            'SNI_enabled' => !$config->isUnixSocket() && filter_var($config->host, FILTER_VALIDATE_IP) === false,
            'peer_name' => $config->host,
        ];
        if ($config->sslRootCert !== null) {
            $options['cafile'] = $config->sslRootCert;
        }

        return $config->tls + $options;
    }

    /**
     * Sends a command and reads until ReadyForQuery.
     *
     * @param list<\Spindle\Database\Pgsql\Protocol\Field> $fields the columns when the command does not describe them
     *
     * @return list<Result>
     *
     * @throws PgsqlException
     */
    private function command(string $bytes, ?string $sql, array $fields = []): array
    {
        $this->enter();
        $this->busy = true;
        $this->notices = [];
        $deadline = $this->config->queryTimeout > 0 ? self::now() + $this->config->queryTimeout : null;
        $cancelled = false;
        $results = [];
        $rows = [];
        $error = null;
        try {
            $bytes = $this->deferred . $bytes;
            $this->deferred = '';
            if (!$this->transport->write($bytes, $deadline)) {
                throw new PgsqlException('could not send the command: timeout expired', '08006');
            }
            $waitFirst = true;
            while (true) {
                $message = $this->reader->next();
                if ($message === null) {
                    $data = $this->transport->read($deadline, $waitFirst);
                    $waitFirst = true;
                    if ($data === '') {
                        if ($cancelled) {
                            throw new PgsqlException(sprintf('query timed out after %.3g s and the server did not confirm its cancellation', $this->config->queryTimeout), '57014');
                        }
                        $cancelled = true;
                        $this->cancel();
                        $deadline = self::now() + $this->config->cancelGrace;
                        continue;
                    }
                    $this->reader->push($data);
                    continue;
                }
                if ($message instanceof DataRow) {
                    $rows[] = $message->values;
                    continue;
                }
                if ($message instanceof CommandComplete) {
                    $results[] = new Result($fields, $rows, $message->tag);
                    $rows = [];
                    continue;
                }
                if ($message instanceof RowDescription) {
                    $fields = $message->fields;
                    $this->describedFields = $fields;
                    continue;
                }
                if ($message instanceof ReadyForQuery) {
                    $this->status = $message->status;
                    break;
                }
                if ($message instanceof ServerMessage && $message->isError) {
                    $error ??= $message;
                    if ($message->isFatal()) {
                        throw PgsqlException::fromServer($message, $sql);
                    }
                    continue;
                }
                if ($message instanceof Signal) {
                    if ($message->type === MessageType::NoData) {
                        $fields = [];
                    } elseif ($message->type === MessageType::EmptyQueryResponse) {
                        $results[] = new Result([], [], '');
                    }
                    continue;
                }
                if ($message instanceof ParameterDescription) {
                    $this->describedTypes = $message->typeOids;
                    continue;
                }
                if ($message instanceof CopyResponse) {
                    $this->copy($message, $deadline);
                    continue;
                }
                if ($message instanceof CopyData) {
                    $this->copyOut[] = $message->data;
                    continue;
                }
                $this->background($message);
            }
        } catch (PgsqlException $e) {
            $this->fail();
            throw $e;
        } catch (ProtocolError $e) {
            $this->fail();
            throw new PgsqlException($e->getMessage(), '08P01', null, $e);
        } finally {
            $this->busy = false;
        }
        if ($error !== null) {
            $exception = PgsqlException::fromServer($error, $sql);
            if ($cancelled && $error->sqlState() === '57014') {
                throw new PgsqlException(sprintf('query timed out after %.3g s: %s', $this->config->queryTimeout, $exception->getMessage()), '57014', $error);
            }
            throw $exception;
        }

        return $results;
    }

    /** Answers a CopyInResponse with the data given to copyFrom() (or a CopyFail). */
    private function copy(CopyResponse $response, ?float $deadline): void
    {
        if ($response->type !== MessageType::CopyInResponse) {
            return;
        }
        if ($this->copyIn === null) {
            $this->transport->write(Frontend::copyFail('COPY FROM STDIN needs Connection::copyFrom()'), $deadline);

            return;
        }
        $buffer = '';
        try {
            foreach ($this->copyIn as $chunk) {
                $buffer .= Frontend::copyData($chunk);
                if (\strlen($buffer) >= 65536) {
                    $this->transport->write($buffer, $deadline);
                    $buffer = '';
                }
            }
        } catch (\Throwable $e) {
            $this->transport->write($buffer . Frontend::copyFail('the data source failed: ' . $e->getMessage()), $deadline);

            return;
        }
        $this->transport->write($buffer . Frontend::copyDone(), $deadline);
    }

    /** Messages that may come at any time. */
    private function background(object $message): void
    {
        if ($message instanceof ParameterStatus) {
            $this->parameters[$message->name] = $message->value;
        } elseif ($message instanceof Notification) {
            $this->notifications[] = $message;
        } elseif ($message instanceof ServerMessage) {
            if ($message->isError) {
                throw PgsqlException::fromServer($message);
            }
            $this->notices[] = $message;
        } elseif ($message instanceof BackendKeyData) {
            $this->key = $message;
        } elseif ($message instanceof Protocol\NegotiateProtocolVersion) {
            // The server speaks an older minor version; nothing Spindle sends depends on it.
        } else {
            throw new ProtocolError(sprintf('Unexpected %s message from the server', (new \ReflectionClass($message))->getShortName()));
        }
    }

    private function nextMessage(?float $deadline, bool $connecting): object
    {
        while (($message = $this->reader->next()) === null) {
            $this->receive($deadline, $connecting);
        }

        return $message;
    }

    private function send(string $bytes, ?float $deadline, bool $connecting): void
    {
        if (!$this->transport->write($bytes, $deadline)) {
            throw new PgsqlException(Transport::where($this->config) . ' failed: timeout expired', $connecting ? '08001' : '08006');
        }
    }

    private function receive(?float $deadline, bool $connecting): void
    {
        $data = $this->transport->read($deadline);
        if ($data === '') {
            throw new PgsqlException(Transport::where($this->config) . ' failed: timeout expired', $connecting ? '08001' : '08006');
        }
        $this->reader->push($data);
    }

    private function enter(): void
    {
        if ($this->busy) {
            throw new PgsqlException(self::IN_PROGRESS, 'HY000');
        }
        if ($this->isBroken()) {
            throw new PgsqlException('no connection to the server', '08003');
        }
    }

    private function fail(): void
    {
        $this->broken = true;
        $this->transport->close();
    }

    private static function now(): float
    {
        return hrtime(true) / 1e9;
    }
}
