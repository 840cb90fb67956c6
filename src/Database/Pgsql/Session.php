<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Revolt\EventLoop;
use Spindle\Database\Pgsql\Protocol\BackendKeyData;
use Spindle\Database\Pgsql\Protocol\CommandComplete;
use Spindle\Database\Pgsql\Protocol\CopyData;
use Spindle\Database\Pgsql\Protocol\CopyResponse;
use Spindle\Database\Pgsql\Protocol\DataRow;
use Spindle\Database\Pgsql\Protocol\Frontend;
use Spindle\Database\Pgsql\Protocol\MessageReader;
use Spindle\Database\Pgsql\Protocol\MessageType;
use Spindle\Database\Pgsql\Protocol\Field;
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
 * The wire under a PostgreSQL Connection: its transport and message reader, the command loop
 * (send, read up to ReadyForQuery, cancel on the query timeout), the messages that may come at
 * any time (ParameterStatus, NOTIFY, notices, BackendKeyData) and the session state they leave.
 * Connection (commands), Startup (the handshake) and CopyAndNotify (COPY and LISTEN) work
 * through it.
 *
 * @internal
 */
final class Session
{
    public const IN_PROGRESS = 'another command is already in progress';

    public readonly MessageReader $reader;
    public bool $busy = false;
    public bool $broken = false;
    public TransactionStatus $status = TransactionStatus::Idle;
    public ?BackendKeyData $key = null;
    /** @var array<string, string> */
    public array $parameters = [];
    /** @var list<Notification> */
    public array $notifications = [];
    /** @var list<ServerMessage> notices of the last command */
    public array $notices = [];
    /** @var list<string> COPY TO data of the last command */
    public array $copyOut = [];
    /** @var iterable<string>|null data for the COPY FROM in progress */
    public ?iterable $copyIn = null;
    /** Whether the server accepted the credentials (AuthenticationOk). */
    public bool $authenticated = false;
    /** Close messages to send ahead of the next command (their CloseComplete answers are skipped). */
    public string $deferred = '';
    /** @var list<int> what the last statement Describe told */
    public array $describedTypes = [];
    /** @var list<Field> */
    public array $describedFields = [];
    /** @var list<Field> the column list $kinds was made for */
    private array $kindsFields = [];
    /** @var array<int, int> */
    private array $kinds = [];

    public function __construct(public readonly ConnectionConfig $config, public readonly Transport $transport)
    {
        $this->reader = new MessageReader();
    }

    /**
     * Sends a command and reads until ReadyForQuery.
     *
     * @param list<Field> $fields   the columns when the command does not describe them
     * @param bool        $phpTypes int and bool text columns read as PHP int and bool
     *
     * @return list<Result>
     *
     * @throws PgsqlException
     */
    public function command(string $bytes, ?string $sql, array $fields = [], bool $phpTypes = false): array
    {
        $kinds = $phpTypes && $fields !== [] ? $this->kindsOf($fields) : [];
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
            // Rows follow a RowDescription (or columns known beforehand): only then is the run of
            // DataRows worth looking for (a DataRow elsewhere still comes through next()).
            $rowsExpected = $fields !== [];
            while (true) {
                if ($rowsExpected && $this->reader->dataRows($rows, $kinds) > 0) {
                    continue;
                }
                $message = $this->reader->next();
                if ($message === null) {
                    // read() tries the socket before it suspends: over loopback the answer to a
                    // short query is there about one time in four, and a long one comes in pieces.
                    $data = $this->transport->read($deadline, false);
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
                    $rowsExpected = true;
                    $fields = $message->fields;
                    $kinds = $phpTypes ? $this->kindsOf($fields) : [];
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
                    CopyAndNotify::answerCopyIn($this, $message, $deadline);
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
        } catch (\Throwable $e) {
            // The wait was cut short from outside (the request was cancelled or timed out): the
            // server may still run the command and its answer would meet the next one. It is
            // asked to cancel, and the session is dropped.
            $this->abandon();
            throw $e;
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

    /**
     * Asks the server to cancel what this session runs (CancelRequest on a second connection).
     * Returns once the request is sent; the command fails with SQLSTATE 57014 if it was still
     * running.
     */
    public function cancel(): void
    {
        if ($this->key !== null) {
            self::sendCancel($this->config, $this->key);
        }
    }

    /** CancelRequest for the session $key names, on a connection of its own; best effort. */
    private static function sendCancel(ConnectionConfig $config, BackendKeyData $key): void
    {
        try {
            $deadline = self::now() + 5.0;
            $canceller = Transport::open($config, $deadline);
            try {
                $canceller->write(Frontend::cancelRequest($key->processId, $key->secretKey), $deadline);
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

    /** Messages that may come at any time. */
    public function background(object $message): void
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

    public function nextMessage(?float $deadline, bool $connecting): object
    {
        while (($message = $this->reader->next()) === null) {
            $this->receive($deadline, $connecting);
        }

        return $message;
    }

    public function send(string $bytes, ?float $deadline, bool $connecting): void
    {
        if (!$this->transport->write($bytes, $deadline)) {
            throw new PgsqlException(Transport::where($this->config) . ' failed: timeout expired', $connecting ? '08001' : '08006');
        }
    }

    public function receive(?float $deadline, bool $connecting): void
    {
        $data = $this->transport->read($deadline);
        if ($data === '') {
            throw new PgsqlException(Transport::where($this->config) . ' failed: timeout expired', $connecting ? '08001' : '08006');
        }
        $this->reader->push($data);
    }

    /**
     * Drops a session whose command is still in flight, with a CancelRequest sent from a task
     * of its own (the task that waited is being unwound), so that the server stops the command
     * rather than running it to its end.
     */
    public function abandon(): void
    {
        $this->fail();
        if ($this->key === null) {
            return;
        }
        $config = $this->config;
        $key = $this->key;
        EventLoop::queue(static function () use ($config, $key): void {
            self::sendCancel($config, $key);
        });
    }

    public function isBroken(): bool
    {
        return $this->broken || !$this->transport->isOpen();
    }

    public function enter(): void
    {
        if ($this->busy) {
            throw new PgsqlException(self::IN_PROGRESS, 'HY000');
        }
        if ($this->isBroken()) {
            throw new PgsqlException('no connection to the server', '08003');
        }
    }

    public function fail(): void
    {
        $this->broken = true;
        $this->transport->close();
    }

    /**
     * kinds() of the last column list asked for, remembered: a statement run again has the
     * same list (the reader hands out one RowDescription per distinct description).
     *
     * @param list<Field> $fields
     *
     * @return array<int, int>
     */
    private function kindsOf(array $fields): array
    {
        if ($fields !== $this->kindsFields) {
            $this->kindsFields = $fields;
            $this->kinds = self::kinds($fields);
        }

        return $this->kinds;
    }

    /**
     * The text columns that arrive as PHP int or bool when asked for (Connection's $phpTypes):
     * int2, int4, int8 and oid; bool.
     *
     * @param list<Field> $fields
     *
     * @return array<int, int> column index => MessageReader::AS_INT or AS_BOOL
     */
    public static function kinds(array $fields): array
    {
        $kinds = [];
        foreach ($fields as $index => $field) {
            if ($field->format !== 0) {
                continue;
            }
            $kind = match ($field->typeOid) {
                TypeDecoder::INT2, TypeDecoder::INT4, TypeDecoder::INT8, TypeDecoder::OID => MessageReader::AS_INT,
                TypeDecoder::BOOL => MessageReader::AS_BOOL,
                default => 0,
            };
            if ($kind !== 0) {
                $kinds[$index] = $kind;
            }
        }

        return $kinds;
    }

    public static function now(): float
    {
        return hrtime(true) / 1e9;
    }
}
