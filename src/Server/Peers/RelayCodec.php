<?php

declare(strict_types=1);

namespace Spindle\Server\Peers;

/**
 * The frames of the master's relay between workers (MasterRelayLink, Supervisor\RelayHub): a
 * 4-byte big-endian length of what follows, one byte of RelayKind, the payload. A Message's
 * payload is the sender's origin, a newline and the message. Bytes go in through push(); whole
 * frames come out of next(). No socket here.
 */
final class RelayCodec
{
    /** The largest frame accepted (a bigger length means the stream is corrupt). */
    public const MAX_FRAME = 16 * 1024 * 1024;

    private string $buffer = '';

    public static function encode(RelayKind $kind, string $payload): string
    {
        return \pack('N', \strlen($payload) + 1) . $kind->value . $payload;
    }

    public static function message(string $origin, string $message): string
    {
        return self::encode(RelayKind::Message, $origin . "\n" . $message);
    }

    /**
     * A Message's origin and message.
     *
     * @return array{string, string}
     */
    public static function splitMessage(string $payload): array
    {
        $at = \strpos($payload, "\n");
        if ($at === false) {
            throw new RelayException('A relayed message without its origin');
        }

        return [\substr($payload, 0, $at), \substr($payload, $at + 1)];
    }

    public function push(string $bytes): void
    {
        $this->buffer .= $bytes;
    }

    /** The next whole frame, or null until more bytes came. */
    public function next(): ?RelayFrame
    {
        if (\strlen($this->buffer) < 5) {
            return null;
        }
        $length = \unpack('N', $this->buffer)[1] ?? 0;
        \assert(\is_int($length));
        if ($length < 1 || $length > self::MAX_FRAME) {
            throw new RelayException(\sprintf('A relay frame of %d bytes (at most %d)', $length, self::MAX_FRAME));
        }
        if (\strlen($this->buffer) < 4 + $length) {
            return null;
        }
        $kind = RelayKind::tryFrom($this->buffer[4]) ?? throw new RelayException(\sprintf('Unknown relay frame kind 0x%02x', \ord($this->buffer[4])));
        $bytes = \substr($this->buffer, 0, 4 + $length);
        $this->buffer = (string) \substr($this->buffer, 4 + $length);

        return new RelayFrame($kind, \substr($bytes, 5), $bytes);
    }

    /** Bytes of an unfinished frame. */
    public function pending(): int
    {
        return \strlen($this->buffer);
    }
}
