<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\ColumnDefinition;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Mysql\PreparedStatement;
use Spindle\Database\Mysql\Result;

/**
 * The client side of one MySQL/MariaDB session, without I/O: bytes from the server go in through
 * push(), bytes for the server come out of takeOutgoing(), and the phase tells the caller what
 * to do next (write, enable TLS, read, or pick up the outcome of a command).
 *
 * push() throws MysqlException only when the session cannot go on: a malformed or unexpected
 * packet (2027, the phase becomes Broken) or a failed handshake (the server's ERR). A server
 * error answering a command is the command's outcome, and the session stays Ready.
 *
 * Over 500 lines: the phases of one session (handshake, authentication, commands, the result
 * sets they answer with) share its sequence ids, phase and outcome; packets, authentication,
 * row decoding and column caching are classes of their own in this namespace.
 */
final class ClientProtocol
{
    /** Columns beyond this in one result are taken for garbage. */
    private const MAX_COLUMNS = 65535;
    private const LOCAL_INFILE_CHUNK = 1 << 20;
    /** sessionMarks(): an OK or EOF reported warnings */
    public const MARK_WARNINGS = 0x10000;
    /** sessionMarks(): an OK reported an insert id (LAST_INSERT_ID() may have changed) */
    public const MARK_INSERT_ID = 0x20000;
    /** sessionMarks(): a command was answered with an error (it stays in the diagnostics area) */
    public const MARK_ERROR = 0x40000;

    private Phase $phase = Phase::AwaitingHandshake;
    private readonly PacketReader $reader;
    private readonly Charset $charset;
    private string $outgoing = '';
    private readonly AuthExchange $auth;
    private int $capabilities = 0;
    private int $statusFlags = 0;
    /** What the server's answers since clearSessionMarks() told of the session (sessionMarks()). */
    private int $marks = 0;

    private ResponseKind $kind = ResponseKind::Ping;
    private ResponseStep $step = ResponseStep::First;
    private string $sql = '';
    private int $expectedColumns = 0;
    private int $expectedParams = 0;
    private int $statementId = 0;
    /** @var list<ColumnDefinition> */
    private array $columns = [];
    /** @var list<int> RowDecoder::textKind() of each column */
    private array $kinds = [];
    /** @var list<int> RowDecoder::binaryKind() of each column, once the binary rows begin */
    private array $binaryKinds = [];
    private readonly ColumnCache $columnCache;
    /** @var list<ColumnDefinition> */
    private array $params = [];
    /** @var list<list<int|float|string|null>> */
    private array $rows = [];
    /** @var list<Result> */
    private array $results = [];
    private ?string $localInfileName = null;
    private ?string $rejectedLocalInfile = null;
    /** Whether the command's rows go to StreamedSets (unbuffered) rather than into its Results. */
    private bool $streaming = false;
    /** @var list<StreamedSet> begun and not taken by takeStreamSets() yet */
    private array $streamSets = [];
    /** The streamed set receiving rows. */
    private ?StreamedSet $streamTail = null;
    /** @var non-empty-list<Result>|PreparedStatement|MysqlException|true|null */
    private array|PreparedStatement|MysqlException|true|null $outcome = null;

    /**
     * @param bool $secureTransport the transport is safe for a cleartext password without TLS (a unix socket)
     *
     * @throws MysqlException 2019 for an unknown charset
     */
    public function __construct(
        private readonly ConnectionConfig $config,
        bool $secureTransport = false,
        int $maxPayload = 1 << 30,
    ) {
        $this->reader = new PacketReader($maxPayload);
        $this->charset = Charset::resolve($config->charset, $config->collation);
        $this->auth = new AuthExchange($config, $this->charset, $secureTransport);
        $this->columnCache = new ColumnCache();
    }

    public function phase(): Phase
    {
        return $this->phase;
    }

    public function handshake(): ?HandshakeV10
    {
        return $this->auth->serverHandshake();
    }

    /** The negotiated capability flags (0 before the handshake response). */
    public function capabilities(): int
    {
        return $this->capabilities;
    }

    public function statusFlags(): int
    {
        return $this->statusFlags;
    }

    /**
     * What the answers since clearSessionMarks() told of the session: ServerStatus::SESSION_STATE_CHANGED
     * (a tracked change: variables, schema, temporary tables, SQL prepared statements), MARK_WARNINGS,
     * MARK_INSERT_ID and MARK_ERROR, or-ed together; 0 when they told nothing.
     */
    public function sessionMarks(): int
    {
        return $this->marks;
    }

    public function clearSessionMarks(): void
    {
        $this->marks = 0;
    }

    /** The SET NAMES statement the configured collation needs after connecting, if any. */
    public function setNamesStatement(): ?string
    {
        return $this->charset->setNames;
    }

    /** The file the server asked for (in phase LocalInfileRequested). */
    public function localInfileName(): ?string
    {
        return $this->localInfileName;
    }

    /** Bytes to write to the server now (and forget). */
    public function takeOutgoing(): string
    {
        $out = $this->outgoing;
        $this->outgoing = '';

        return $out;
    }

    /**
     * The outcome of the connection phase (true) or of the last command: its results, the
     * prepared statement, true for ping, or the server's error; null while still waiting.
     *
     * @return non-empty-list<Result>|PreparedStatement|MysqlException|true|null
     */
    public function takeOutcome(): array|PreparedStatement|MysqlException|true|null
    {
        $outcome = $this->outcome;
        $this->outcome = null;

        return $outcome;
    }

    /**
     * Bytes from the server.
     *
     * @throws MysqlException
     */
    public function push(string $bytes): void
    {
        if ($this->phase === Phase::Broken) {
            throw Errors::malformed('the session is broken');
        }
        try {
            if ($bytes !== '' && !$this->waitingForServer()) {
                throw Errors::malformed(sprintf('unexpected data from the server in phase %s', $this->phase->name));
            }
            $this->reader->push($bytes);
            // Stop at the end of the awaited answer: whatever follows was not asked for and
            // stays in unconsumedInput().
            while ($this->waitingForServer() && ($payload = $this->reader->next()) !== null) {
                $this->handle($payload);
            }
        } catch (MysqlException $e) {
            $this->phase = Phase::Broken;
            throw $e;
        }
    }

    /** Whether the session waits for packets from the server. */
    public function waitingForServer(): bool
    {
        return match ($this->phase) {
            Phase::AwaitingHandshake, Phase::Authenticating, Phase::AwaitingResponse => true,
            default => false,
        };
    }

    /** Bytes that arrived after the last awaited answer (the server spoke unasked). */
    public function unconsumedInput(): string
    {
        return $this->reader->unconsumed();
    }

    /** Whether bytes arrived after the last awaited answer (cheaper than unconsumedInput() !== ''). */
    public function hasUnconsumedInput(): bool
    {
        return $this->reader->buffered() > 0;
    }

    /** Call once TLS is up after phase TlsRequested: queues the handshake response. */
    public function tlsEstablished(): void
    {
        $this->requirePhase(Phase::TlsRequested);
        $this->send($this->auth->tlsEstablished());
        $this->phase = Phase::Authenticating;
    }

    /** Marks the session unusable (the transport failed). */
    public function markBroken(): void
    {
        $this->phase = Phase::Broken;
    }

    /** @param bool $stream hand the rows out as they arrive (takeStreamSets()) instead of in the outcome */
    public function query(string $sql, bool $stream = false): void
    {
        $this->startCommand(Command::Query, $sql, ResponseKind::Text);
        $this->streaming = $stream;
    }

    public function prepare(string $sql): void
    {
        $this->startCommand(Command::StmtPrepare, $sql, ResponseKind::Prepare);
        $this->sql = $sql;
    }

    /**
     * @param list<mixed> $params
     *
     * @throws MysqlException 2031/2036 for parameters that cannot be sent (the session stays Ready)
     */
    public function execute(PreparedStatement $statement, array $params, bool $stream = false): void
    {
        $this->requirePhase(Phase::Ready);
        $payload = ExecuteRequest::build($statement->id, \count($statement->params), $params);
        $this->startPayload($payload, ResponseKind::Binary);
        $this->streaming = $stream;
    }

    /**
     * A streamed command's result sets begun since the last call, in order. The last one may
     * still be receiving rows (it is the same object: keep reading its rows). The outcome of a
     * streamed command has results without rows.
     *
     * @return list<StreamedSet>
     */
    public function takeStreamSets(): array
    {
        $sets = $this->streamSets;
        $this->streamSets = [];

        return $sets;
    }

    /** COM_STMT_CLOSE has no response: the session stays Ready. */
    public function closeStatement(int $statementId): void
    {
        $this->requirePhase(Phase::Ready);
        $this->reader->setSequence(0);
        $this->send(\chr(Command::StmtClose->value) . Buffer::writeInt4($statementId));
    }

    public function ping(): void
    {
        $this->startCommand(Command::Ping, '', ResponseKind::Ping);
    }

    /**
     * COM_RESET_CONNECTION: the server rolls back a transaction, drops temporary tables, prepared
     * statements, user variables and locks, and sets session variables back to their global
     * values, as on a new session of the same user and database. Answered with OK (or ERR), as
     * COM_PING.
     */
    public function resetConnection(): void
    {
        $this->startCommand(Command::ResetConnection, '', ResponseKind::Ping);
    }

    /** COM_QUIT: the session ends. */
    public function quit(): void
    {
        if ($this->phase === Phase::Ready) {
            $this->reader->setSequence(0);
            $this->send(\chr(Command::Quit->value));
        }
        $this->phase = Phase::Closed;
    }

    /**
     * Answers a LOCAL INFILE request with the file's contents, or refuses it with null (an empty
     * packet; the command then fails with 2068, or with 7890 "Can't find file" when local files
     * are allowed).
     */
    public function sendLocalInfile(?string $contents): void
    {
        $this->requirePhase(Phase::LocalInfileRequested);
        if ($contents === null) {
            $this->rejectedLocalInfile = $this->localInfileName;
        } else {
            $length = \strlen($contents);
            for ($offset = 0; $offset < $length; $offset += self::LOCAL_INFILE_CHUNK) {
                $this->send(substr($contents, $offset, self::LOCAL_INFILE_CHUNK));
            }
        }
        $this->send('');
        $this->localInfileName = null;
        $this->phase = Phase::AwaitingResponse;
    }

    /**
     * What a packet that arrived while the session was idle says (an ERR before the server
     * closes the connection, typically), or null if it is not a complete ERR packet.
     */
    public static function describeUnsolicited(string $bytes): ?MysqlException
    {
        if (\strlen($bytes) < 5 || $bytes[4] !== "\xFF") {
            return null;
        }
        $length = \ord($bytes[0]) | (\ord($bytes[1]) << 8) | (\ord($bytes[2]) << 16);
        if (\strlen($bytes) < 4 + $length) {
            return null;
        }

        try {
            return ErrPacket::parse(substr($bytes, 4, $length));
        } catch (MysqlException) {
            return null;
        }
    }

    private function requirePhase(Phase $phase): void
    {
        if ($this->phase !== $phase) {
            throw new \LogicException(sprintf('The MySQL session is in phase %s, not %s', $this->phase->name, $phase->name));
        }
    }

    private function startCommand(Command $command, string $argument, ResponseKind $kind): void
    {
        $this->requirePhase(Phase::Ready);
        $this->startPayload(\chr($command->value) . $argument, $kind);
    }

    private function startPayload(string $payload, ResponseKind $kind): void
    {
        if ($this->reader->buffered() > 0) {
            $this->phase = Phase::Broken;
            throw new MysqlException('MySQL server has gone away: it sent data while the session was idle', Errors::SERVER_GONE);
        }
        $length = \strlen($payload);
        if ($length < PacketReader::MAX_PACKET) {
            // One packet, sequence id 0: the 4-byte little-endian length has 0 as its fourth byte.
            $this->outgoing .= pack('V', $length) . $payload;
            $this->reader->setSequence(1);
        } else {
            $this->reader->setSequence(0);
            $this->send($payload);
        }
        $this->phase = Phase::AwaitingResponse;
        $this->kind = $kind;
        $this->step = ResponseStep::First;
        $this->results = [];
        $this->rows = [];
        $this->columns = [];
        $this->kinds = [];
        $this->binaryKinds = [];
        $this->params = [];
        $this->rejectedLocalInfile = null;
        $this->outcome = null;
        $this->streaming = false;
        $this->streamSets = [];
        $this->streamTail = null;
    }

    private function send(string $payload): void
    {
        [$bytes, $next] = PacketReader::frame($payload, $this->reader->sequence());
        $this->outgoing .= $bytes;
        $this->reader->setSequence($next);
    }

    private function handle(string $payload): void
    {
        match ($this->phase) {
            Phase::AwaitingHandshake => $this->handleHandshake($payload),
            Phase::Authenticating => $this->handleAuth($payload),
            Phase::AwaitingResponse => $this->handleResponse($payload),
            default => throw Errors::malformed(sprintf('unexpected packet in phase %s', $this->phase->name)),
        };
    }

    private function handleHandshake(string $payload): void
    {
        [$packet, $tls] = $this->auth->handshake($payload);
        $this->capabilities = $this->auth->capabilities();
        $this->statusFlags = $this->auth->serverHandshake()->statusFlags ?? 0;
        $this->send($packet);
        $this->phase = $tls ? Phase::TlsRequested : Phase::Authenticating;
    }

    private function handleAuth(string $payload): void
    {
        $answer = $this->auth->next($payload);
        if ($answer instanceof OkPacket) {
            $this->statusFlags = $answer->statusFlags;
            $this->phase = Phase::Ready;
            $this->outcome = true;
        } elseif ($answer !== null) {
            $this->send($answer);
        }
    }

    private function sessionTrack(): bool
    {
        return ($this->capabilities & Capability::SESSION_TRACK) !== 0;
    }

    private function deprecateEof(): bool
    {
        return ($this->capabilities & Capability::DEPRECATE_EOF) !== 0;
    }

    private function handleResponse(string $payload): void
    {
        $header = $payload === '' ? -1 : \ord($payload[0]);
        if ($header === 0xFF && $this->step !== ResponseStep::Columns && $this->step !== ResponseStep::Params) {
            $this->complete(ErrPacket::parse($payload));

            return;
        }
        switch ($this->step) {
            case ResponseStep::First:
                $this->first($payload, $header);

                return;
            case ResponseStep::Params:
                $this->params[] = $this->columnCache->define($payload)[0];
                if (\count($this->params) === $this->expectedParams) {
                    if ($this->deprecateEof()) {
                        $this->afterPrepareParams();
                    } else {
                        $this->step = ResponseStep::ParamsEof;
                    }
                }

                return;
            case ResponseStep::ParamsEof:
                $this->expectEof($payload);
                $this->afterPrepareParams();

                return;
            case ResponseStep::Columns:
                [$this->columns[], $this->kinds[]] = $this->columnCache->define($payload);
                if ($this->kind !== ResponseKind::Prepare) {
                    $this->columnCache->record($payload, $this->reader->sequence() - 1);
                }
                if (\count($this->columns) === $this->expectedColumns) {
                    if ($this->kind !== ResponseKind::Prepare) {
                        $this->columnCache->remember($this->expectedColumns, $this->columns, $this->kinds);
                    }
                    if (!$this->deprecateEof()) {
                        $this->step = ResponseStep::ColumnsEof;
                    } else {
                        $this->afterColumns();
                    }
                }

                return;
            case ResponseStep::ColumnsEof:
                $this->expectEof($payload);
                $this->afterColumns();

                return;
            case ResponseStep::Rows:
                $this->rows($payload, $header);

                return;
        }
    }

    private function expectEof(string $payload): void
    {
        if (!EofPacket::is($payload)) {
            throw Errors::malformed('expected an EOF packet after the definitions');
        }
        $eof = EofPacket::parse($payload);
        $this->statusFlags = $eof->statusFlags;
        $this->marks |= ($eof->statusFlags & ServerStatus::SESSION_STATE_CHANGED) | ($eof->warnings > 0 ? self::MARK_WARNINGS : 0);
    }

    private function first(string $payload, int $header): void
    {
        if ($this->kind === ResponseKind::Prepare) {
            $this->prepareOk($payload, $header);

            return;
        }
        if ($header === 0x00) {
            $ok = OkPacket::parse($payload, $this->sessionTrack());
            $this->statusFlags = $ok->statusFlags;
            $this->marks |= ($ok->statusFlags & ServerStatus::SESSION_STATE_CHANGED) | ($ok->warnings > 0 ? self::MARK_WARNINGS : 0)
                | ($ok->lastInsertId !== 0 ? self::MARK_INSERT_ID : 0);
            if ($this->kind === ResponseKind::Ping) {
                $this->complete(true);

                return;
            }
            $result = new Result([], [], $ok->affectedRows, $ok->lastInsertId, $ok->warnings, $ok->statusFlags, $ok->info);
            $this->results[] = $result;
            if ($this->streaming) {
                $this->streamSets[] = StreamedSet::ok($result);
            }
            $this->afterResult($ok->statusFlags);

            return;
        }
        if ($this->kind === ResponseKind::Ping) {
            throw Errors::malformed(sprintf('unexpected packet 0x%02X answering COM_PING or COM_RESET_CONNECTION', $header));
        }
        // COM_QUERY and COM_STMT_EXECUTE alike: a prepared LOAD DATA LOCAL INFILE asks too.
        if ($header === 0xFB) {
            $this->localInfileName = substr($payload, 1);
            $this->phase = Phase::LocalInfileRequested;
            if (!$this->config->offersLocalInfile()) {
                $this->sendLocalInfile(null);
            }

            return;
        }
        if ($header < 0xFB && \strlen($payload) === 1) {
            // The usual column count: one byte.
            $count = $header;
            $valid = true;
        } else {
            $buffer = new Buffer($payload);
            $count = $buffer->lenencInt();
            $valid = $buffer->atEnd();
        }
        if ($count === 0 || $count > self::MAX_COLUMNS || !$valid) {
            throw Errors::malformed(sprintf('unexpected packet 0x%02X starting a result', $header));
        }
        $this->expectedColumns = $count;
        $this->rows = [];
        $this->columnCache->startSection();
        $known = $this->columnCache->known($count, $this->reader);
        if ($known !== null) {
            [$this->columns, $this->kinds] = $known;
            $this->binaryKinds = [];
            if ($this->deprecateEof()) {
                $this->afterColumns();
            } else {
                $this->step = ResponseStep::ColumnsEof;
            }

            return;
        }
        $this->columns = [];
        $this->kinds = [];
        $this->binaryKinds = [];
        $this->step = ResponseStep::Columns;
    }

    private function prepareOk(string $payload, int $header): void
    {
        if ($header !== 0x00 || \strlen($payload) < 9) {
            throw Errors::malformed(sprintf('unexpected packet 0x%02X answering COM_STMT_PREPARE', $header));
        }
        $buffer = new Buffer($payload);
        $buffer->skip(1);
        $this->statementId = $buffer->int4();
        $this->expectedColumns = $buffer->int2();
        $this->expectedParams = $buffer->int2();
        $this->params = [];
        $this->columns = [];
        $this->kinds = [];
        $this->binaryKinds = [];
        if ($this->expectedParams > 0) {
            $this->step = ResponseStep::Params;

            return;
        }
        $this->afterPrepareParams();
    }

    private function afterPrepareParams(): void
    {
        if ($this->expectedColumns > 0) {
            $this->step = ResponseStep::Columns;

            return;
        }
        $this->completePrepare();
    }

    private function completePrepare(): void
    {
        $this->complete(new PreparedStatement($this->statementId, $this->sql, $this->params, $this->columns));
    }

    private function afterColumns(): void
    {
        if ($this->kind === ResponseKind::Prepare) {
            $this->completePrepare();

            return;
        }
        if ($this->streaming) {
            $this->streamTail = new StreamedSet($this->columns);
            $this->streamSets[] = $this->streamTail;
        }
        $this->step = ResponseStep::Rows;
    }

    /**
     * One row, then every further row already buffered, in one loop, up to the result's end
     * (EOF or OK packet) or an error.
     */
    private function rows(string $payload, int $header): void
    {
        $binary = $this->kind === ResponseKind::Binary;
        if ($binary && $this->binaryKinds === []) {
            $this->binaryKinds = array_map(RowDecoder::binaryKind(...), $this->columns);
        }
        $deprecateEof = $this->deprecateEof();
        $limit = $deprecateEof ? PacketReader::MAX_PACKET : 9;
        while (true) {
            if ($header === 0xFE && \strlen($payload) < $limit) {
                $this->endOfRows($payload, $deprecateEof);

                return;
            }
            if ($header === 0xFF) {
                $this->complete(ErrPacket::parse($payload));

                return;
            }
            $row = $binary
                ? RowDecoder::binaryRowOfKinds($payload, $this->columns, $this->binaryKinds)
                : RowDecoder::textRowOfKinds($payload, $this->kinds);
            if ($this->streamTail !== null) {
                $this->streamTail->rows[] = $row;
            } else {
                $this->rows[] = $row;
            }
            $payload = $this->reader->next();
            if ($payload === null) {
                return;
            }
            $header = $payload === '' ? -1 : \ord($payload[0]);
        }
    }

    private function endOfRows(string $payload, bool $deprecateEof): void
    {
        if ($deprecateEof && \strlen($payload) >= 7 && \ord($payload[1]) < 0xFB && \ord($payload[2]) < 0xFB) {
            // The usual OK ending a result: one-byte affected rows and insert id, then status and warnings.
            $status = \ord($payload[3]) | (\ord($payload[4]) << 8);
            $warnings = \ord($payload[5]) | (\ord($payload[6]) << 8);
        } elseif ($deprecateEof) {
            $ok = OkPacket::parse($payload, $this->sessionTrack());
            $warnings = $ok->warnings;
            $status = $ok->statusFlags;
        } else {
            $eof = EofPacket::parse($payload);
            $warnings = $eof->warnings;
            $status = $eof->statusFlags;
        }
        $this->statusFlags = $status;
        $this->marks |= ($status & ServerStatus::SESSION_STATE_CHANGED) | ($warnings > 0 ? self::MARK_WARNINGS : 0);
        $result = new Result($this->columns, $this->rows, 0, 0, $warnings, $status);
        $this->results[] = $result;
        if ($this->streamTail !== null) {
            $this->streamTail->summary = $result;
            $this->streamTail = null;
        }
        $this->columns = [];
        $this->kinds = [];
        $this->binaryKinds = [];
        $this->rows = [];
        $this->afterResult($status);
    }

    private function afterResult(int $status): void
    {
        if (($status & ServerStatus::MORE_RESULTS_EXISTS) !== 0) {
            $this->step = ResponseStep::First;

            return;
        }
        if ($this->results === []) {
            throw Errors::malformed('response without a result');
        }
        $this->complete($this->results);
    }

    /** @param non-empty-list<Result>|PreparedStatement|MysqlException|true $outcome */
    private function complete(array|PreparedStatement|MysqlException|true $outcome): void
    {
        if ($this->rejectedLocalInfile !== null && !$outcome instanceof MysqlException) {
            // Refused although allowed: the file could not be read (mysqlnd's error for that).
            $outcome = $this->config->mayReadLocalFile($this->rejectedLocalInfile)
                ? new MysqlException(sprintf("Can't find file '%.64s'.", $this->rejectedLocalInfile), Errors::LOCAL_INFILE_NOT_FOUND)
                // mysqlnd's text, whose setting names tell PHP users where to look.
                : new MysqlException(
                    $this->config->localInfileDirectory !== null
                    ? 'LOAD DATA LOCAL INFILE DIRECTORY restriction in effect. Unable to open file'
                    : 'LOAD DATA LOCAL INFILE is forbidden, check related settings like mysqli.allow_local_infile|mysqli.local_infile_directory or PDO::MYSQL_ATTR_LOCAL_INFILE|PDO::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY',
                    Errors::LOAD_DATA_LOCAL_INFILE_REJECTED,
                );
        }
        $this->rejectedLocalInfile = null;
        if ($outcome instanceof MysqlException) {
            $this->marks |= self::MARK_ERROR;
        }
        $this->outcome = $outcome;
        $this->results = [];
        $this->rows = [];
        $this->phase = Phase::Ready;
        $this->step = ResponseStep::First;
    }
}
