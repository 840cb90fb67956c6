<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/**
 * Decodes backend messages (protocol 3.0) from bytes pushed in any pieces: push() what the socket
 * gave, then take messages with next() until it returns null (a message not complete yet).
 *
 * Bytes that are no protocol (an unknown type byte, a length out of range, a body that does not
 * hold what its type needs) raise ProtocolError; the reader is then useless and the connection
 * must be dropped.
 *
 * Before the startup's first answer the server may answer an SSLRequest with one byte ('S' or
 * 'N'): sslAnswer() reads it.
 */
final class MessageReader
{
    /** A message may not claim more than this (the server's own limit for a row is 1 GB). */
    public const MAX_MESSAGE = 0x40000000;
    /** dataRows() conversions of text values: an integer, a boolean ('t' or 'f'). */
    public const AS_INT = 1;
    public const AS_BOOL = 2;

    /** RowDescriptions remembered by their bytes: a statement run again is described by a lookup. */
    private const KNOWN_DESCRIPTIONS = 64;
    /** The messages whose type byte says everything (their body is empty). */
    private const SIGNALS = ['1' => true, '2' => true, '3' => true, 'n' => true, 'I' => true, 's' => true, 'c' => true];

    private string $buffer = '';
    private int $offset = 0;
    /** @var array<int|string, Signal> one immutable instance per signal type byte (digits become int keys) */
    private array $signals = [];
    /** @var array<string, ReadyForQuery> one immutable instance per transaction status byte */
    private array $ready = [];
    /** @var array<string, RowDescription> by message body */
    private array $descriptions = [];

    public function push(string $bytes): void
    {
        if ($this->offset > 0 && $this->offset >= \strlen($this->buffer)) {
            $this->buffer = $bytes;
            $this->offset = 0;

            return;
        }
        if ($this->offset > 65536) {
            $this->buffer = substr($this->buffer, $this->offset);
            $this->offset = 0;
        }
        $this->buffer .= $bytes;
    }

    /** Bytes pushed and not decoded yet. */
    public function buffered(): int
    {
        return \strlen($this->buffer) - $this->offset;
    }

    /**
     * The answer to an SSLRequest: true for 'S', false for 'N', null while nothing is there.
     *
     * @throws ProtocolError
     */
    public function sslAnswer(): ?bool
    {
        if ($this->buffered() < 1) {
            return null;
        }
        $byte = $this->buffer[$this->offset];
        if ($byte === 'E') {
            // A server too old for SSLRequest answers with an ErrorResponse: let next() read it.
            return false;
        }
        ++$this->offset;

        return match ($byte) {
            'S' => true,
            'N' => false,
            default => throw new ProtocolError(sprintf('The server answered the SSL request with byte 0x%02x', \ord($byte))),
        };
    }

    /**
     * The next complete message, or null. (The union is a docblock type: checked by the engine
     * on every return, a union of classes costs a class lookup per member tried.)
     *
     * @return Authentication|ParameterStatus|BackendKeyData|ReadyForQuery|RowDescription|DataRow|CommandComplete|ParameterDescription|Notification|CopyResponse|CopyData|NegotiateProtocolVersion|ServerMessage|Signal|null
     *
     * @throws ProtocolError
     */
    public function next(): ?object
    {
        $buffer = $this->buffer;
        $offset = $this->offset;
        $available = \strlen($buffer) - $offset;
        if ($available < 5) {
            return null;
        }
        $typeByte = $buffer[$offset];
        // Most messages are shorter than 256 bytes (see dataRows()).
        $length = $buffer[$offset + 1] === "\0" && $buffer[$offset + 2] === "\0" && $buffer[$offset + 3] === "\0"
            ? \ord($buffer[$offset + 4])
            : self::int32($buffer, $offset + 1);
        if ($length < 4 || $length > self::MAX_MESSAGE) {
            throw new ProtocolError(sprintf("Malformed message from the server: type '%s' with length %d", self::printable($typeByte), $length));
        }
        if ($available < $length + 1) {
            return null;
        }
        $start = $offset + 5;
        $bodyLength = $length - 4;
        $this->offset = $offset + $length + 1;
        if ($typeByte === 'D') {
            return $this->dataRow($start, $bodyLength);
        }
        // The messages of every command's answer, without a Cursor: bodiless signals, the
        // ReadyForQuery status byte, a command tag, a RowDescription seen before.
        if ($bodyLength === 0 && isset(self::SIGNALS[$typeByte])) {
            return $this->signals[$typeByte] ??= new Signal(MessageType::from($typeByte));
        }
        if ($typeByte === 'Z' && $bodyLength === 1) {
            $status = $this->buffer[$start];

            return $this->ready[$status] ??= new ReadyForQuery(
                TransactionStatus::tryFrom($status) ?? throw new ProtocolError('Unknown transaction status in ReadyForQuery'),
            );
        }
        if ($typeByte === 'C' && $bodyLength > 0 && strpos($this->buffer, "\0", $start) === $start + $bodyLength - 1) {
            return new CommandComplete(substr($this->buffer, $start, $bodyLength - 1));
        }
        if ($typeByte === 'T') {
            $bytes = substr($this->buffer, $start, $bodyLength);
            if (isset($this->descriptions[$bytes])) {
                return $this->descriptions[$bytes];
            }
            $body = new Cursor($bytes, MessageType::RowDescription);
            $description = self::rowDescription($body);
            $body->end();
            if (\count($this->descriptions) >= self::KNOWN_DESCRIPTIONS) {
                $this->descriptions = [];
            }

            return $this->descriptions[$bytes] = $description;
        }
        $type = MessageType::tryFrom($typeByte)
            ?? throw new ProtocolError(sprintf("Unknown message type '%s' (0x%02x) from the server", self::printable($typeByte), \ord($typeByte)));
        $body = new Cursor(substr($this->buffer, $start, $bodyLength), $type);

        $message = match ($type) {
            MessageType::Authentication => self::authentication($body),
            MessageType::ParameterStatus => new ParameterStatus($body->cstring(), $body->cstring()),
            MessageType::BackendKeyData => new BackendKeyData($body->int32(), $body->int32()),
            MessageType::ReadyForQuery => new ReadyForQuery(
                TransactionStatus::tryFrom($body->bytes(1)) ?? throw new ProtocolError('Unknown transaction status in ReadyForQuery'),
            ),
            MessageType::RowDescription => self::rowDescription($body),
            MessageType::CommandComplete => new CommandComplete($body->cstring()),
            MessageType::ParameterDescription => self::parameterDescription($body),
            MessageType::NotificationResponse => new Notification($body->int32(), $body->cstring(), $body->cstring()),
            MessageType::CopyInResponse, MessageType::CopyOutResponse, MessageType::CopyBothResponse => self::copyResponse($body, $type),
            MessageType::CopyData => new CopyData($body->rest()),
            MessageType::NegotiateProtocolVersion => self::negotiate($body),
            MessageType::ErrorResponse, MessageType::NoticeResponse => self::serverMessage($body, $type === MessageType::ErrorResponse),
            MessageType::FunctionCallResponse => throw new ProtocolError('Unexpected FunctionCallResponse from the server'),
            default => new Signal($type),
        };
        $body->end();

        return $message;
    }

    /**
     * Decodes the complete DataRow messages at the head of the buffer straight into $rows (one
     * list of ?string per row, no message objects): the hot path of a result. Returns how many
     * it took; 0 when the next message is something else or not complete yet (next() reads it).
     * $kinds converts text values on the way: column index => self::AS_INT or self::AS_BOOL.
     *
     * @param list<list<string|int|bool|null>> $rows
     * @param array<int, int>                  $kinds
     *
     * @throws ProtocolError
     */
    public function dataRows(array &$rows, array $kinds = []): int
    {
        $buffer = $this->buffer;
        $offset = $this->offset;
        $available = \strlen($buffer);
        $taken = 0;
        $blankCount = -1;
        $blank = [];
        while ($offset + 7 <= $available && $buffer[$offset] === 'D') {
            $length = (\ord($buffer[$offset + 1]) << 24) | (\ord($buffer[$offset + 2]) << 16) | (\ord($buffer[$offset + 3]) << 8) | \ord($buffer[$offset + 4]);
            $end = $offset + 1 + $length;
            if ($length < 6 || $length > self::MAX_MESSAGE || $end > $available) {
                // Malformed (next() says how) or not complete yet.
                break;
            }
            $count = (\ord($buffer[$offset + 5]) << 8) | \ord($buffer[$offset + 6]);
            $at = $offset + 7;
            if ($count !== $blankCount) {
                $blank = $count === 0 ? [] : array_fill(0, $count, null);
                $blankCount = $count;
            }
            $values = $blank;
            for ($i = 0; $i < $count; ++$i) {
                if ($at + 4 > $end) {
                    throw new ProtocolError('Malformed DataRow: value length past the end of the message');
                }
                // Most values are shorter than 256 bytes: three comparisons spare three ord() calls.
                $size = $buffer[$at] === "\0" && $buffer[$at + 1] === "\0" && $buffer[$at + 2] === "\0"
                    ? \ord($buffer[$at + 3])
                    : (\ord($buffer[$at]) << 24) | (\ord($buffer[$at + 1]) << 16) | (\ord($buffer[$at + 2]) << 8) | \ord($buffer[$at + 3]);
                if ($size === 0xFFFFFFFF) {
                    $at += 4;
                    continue;
                }
                // A size past the end shows as $at beyond $end: at the next value or after the last.
                $values[$i] = substr($buffer, $at + 4, $size);
                $at += 4 + $size;
            }
            if ($at !== $end) {
                throw new ProtocolError($at > $end ? 'Malformed DataRow: value past the end of the message' : 'Malformed DataRow: bytes left after the last value');
            }
            foreach ($kinds as $i => $kind) {
                if (isset($values[$i])) {
                    $values[$i] = $kind === self::AS_INT ? (int) $values[$i] : $values[$i] === 't';
                }
            }
            /** @var list<string|int|bool|null> $values every index below $count was set (array_fill()) */
            $rows[] = $values;
            $offset = $end;
            ++$taken;
        }
        $this->offset = $offset;

        return $taken;
    }

    private function dataRow(int $start, int $bodyLength): DataRow
    {
        $buffer = $this->buffer;
        $end = $start + $bodyLength;
        if ($bodyLength < 2) {
            throw new ProtocolError('Malformed DataRow: too short');
        }
        $count = (\ord($buffer[$start]) << 8) | \ord($buffer[$start + 1]);
        $at = $start + 2;
        $values = [];
        for ($i = 0; $i < $count; ++$i) {
            if ($at + 4 > $end) {
                throw new ProtocolError('Malformed DataRow: value length past the end of the message');
            }
            $size = self::int32($buffer, $at);
            $at += 4;
            if ($size === 0xFFFFFFFF) {
                $values[] = null;
                continue;
            }
            if ($size > $end - $at) {
                throw new ProtocolError('Malformed DataRow: value past the end of the message');
            }
            $values[] = substr($buffer, $at, $size);
            $at += $size;
        }
        if ($at !== $end) {
            throw new ProtocolError('Malformed DataRow: bytes left after the last value');
        }

        return new DataRow($values);
    }

    private static function authentication(Cursor $body): Authentication
    {
        $code = $body->int32();

        return match ($code) {
            Authentication::OK, Authentication::CLEARTEXT => new Authentication($code),
            Authentication::MD5 => new Authentication($code, $body->bytes(4)),
            Authentication::SASL, Authentication::SASL_CONTINUE, Authentication::SASL_FINAL => new Authentication($code, $body->rest()),
            default => new Authentication($code, $body->rest()),
        };
    }

    private static function rowDescription(Cursor $body): RowDescription
    {
        $count = $body->int16();
        $fields = [];
        for ($i = 0; $i < $count; ++$i) {
            $fields[] = new Field($body->cstring(), $body->int32(), $body->int16(), $body->int32(), $body->signed16(), $body->signed32(), $body->int16());
        }

        return new RowDescription($fields);
    }

    private static function parameterDescription(Cursor $body): ParameterDescription
    {
        $count = $body->int16();
        $oids = [];
        for ($i = 0; $i < $count; ++$i) {
            $oids[] = $body->int32();
        }

        return new ParameterDescription($oids);
    }

    private static function copyResponse(Cursor $body, MessageType $type): CopyResponse
    {
        $format = \ord($body->bytes(1));
        $count = $body->int16();
        $formats = [];
        for ($i = 0; $i < $count; ++$i) {
            $formats[] = $body->int16();
        }

        return new CopyResponse($type, $format, $formats);
    }

    private static function negotiate(Cursor $body): NegotiateProtocolVersion
    {
        $minor = $body->int32();
        $count = $body->int32();
        $options = [];
        for ($i = 0; $i < $count; ++$i) {
            $options[] = $body->cstring();
        }

        return new NegotiateProtocolVersion($minor, $options);
    }

    private static function serverMessage(Cursor $body, bool $isError): ServerMessage
    {
        $fields = [];
        while (true) {
            $code = $body->bytes(1);
            if ($code === "\0") {
                break;
            }
            $fields[$code] = $body->cstring();
        }

        return new ServerMessage($isError, $fields);
    }

    private static function int32(string $bytes, int $at): int
    {
        return (\ord($bytes[$at]) << 24) | (\ord($bytes[$at + 1]) << 16) | (\ord($bytes[$at + 2]) << 8) | \ord($bytes[$at + 3]);
    }

    private static function printable(string $byte): string
    {
        return ctype_print($byte) ? $byte : '?';
    }
}
