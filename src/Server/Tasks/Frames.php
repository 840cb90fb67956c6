<?php

declare(strict_types=1);

namespace Spindle\Server\Tasks;

/**
 * @internal The task protocol's framing: a 4-byte big-endian length, then that many bytes of
 * serialize()d data. push() takes bytes as they arrive and returns the whole frames.
 */
final class Frames
{
    /** Frames larger than this are refused (a corrupt length, or a result too big to send back). */
    public const MAX = 67108864;

    private string $buffer = '';

    /** A note (TaskCaller::note()): ['note', topic, body], serialized; results start otherwise. */
    public static function note(string $topic, string $body): string
    {
        return self::encode(['note', $topic, $body]);
    }

    /** Whether $payload is a note rather than the task's result (['ok', …] or ['error', …]). */
    public static function isNote(string $payload): bool
    {
        return \str_starts_with($payload, 'a:3:{i:0;s:4:"note";');
    }

    public static function encode(mixed $value): string
    {
        $payload = \serialize($value);
        if (\strlen($payload) > self::MAX) {
            throw new TaskFailed(\sprintf('A task message of %d bytes is larger than the %d allowed', \strlen($payload), self::MAX));
        }

        return \pack('N', \strlen($payload)) . $payload;
    }

    /**
     * Writes the whole of $frame on a blocking $connection; false when the other side is gone
     * before it has all of it.
     *
     * @param resource $connection
     */
    public static function write($connection, string $frame): bool
    {
        for ($written = 0; $written < \strlen($frame);) {
            $n = @\fwrite($connection, \substr($frame, $written));
            if ($n === false || $n === 0) {
                return false;
            }
            $written += $n;
        }

        return true;
    }

    /** @return list<string> the payloads completed by $bytes */
    public function push(string $bytes): array
    {
        $this->buffer .= $bytes;
        $frames = [];
        while (\strlen($this->buffer) >= 4) {
            $length = \unpack('N', $this->buffer);
            $length = \is_array($length) ? (int) $length[1] : 0;
            if ($length > self::MAX) {
                throw new TaskFailed(\sprintf('A task message announced %d bytes, more than the %d allowed', $length, self::MAX));
            }
            if (\strlen($this->buffer) < 4 + $length) {
                break;
            }
            $frames[] = \substr($this->buffer, 4, $length);
            $this->buffer = \substr($this->buffer, 4 + $length);
        }

        return $frames;
    }
}
