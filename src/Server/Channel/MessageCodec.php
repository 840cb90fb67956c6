<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

use Spindle\Metrics\Family;
use Spindle\Server\ExitCause;
use Spindle\Server\RetireReason;

/**
 * The worker -> master channel's wire format, both ways: one JSON object per line, its "type"
 * naming the message (MessageType), the fields after it.
 *
 *     {"type":"ready"}
 *     {"type":"report","requests":12,"inflight":1,"connections":3,"memory":4194304,"peak":6291456,"lag":0.0012}
 *     {"type":"retire","reason":"max-requests"}
 *     {"type":"boot-error","message":"RuntimeException: ..."}
 *     {"type":"exiting","reason":"exit","requests":12,"inflight":9}
 *     {"type":"metrics","families":[...]}   (each family as Metrics\Family::toArray() writes it)
 *
 * The worker calls encode(); the master keeps one codec per worker, push()es the bytes it reads
 * and takes whole messages with next(). No socket here: tests feed it bytes. A line that is no
 * message (not JSON, an unknown type, a missing or mistyped field, longer than MAX_LINE) makes
 * next() throw MalformedMessage once; the lines after it are read as usual. Fields a message does
 * not know are ignored.
 */
final class MessageCodec
{
    /** A line longer than this (bytes) is dropped whole. */
    public const MAX_LINE = 1 << 20;
    private const JSON_FLAGS = \JSON_UNESCAPED_SLASHES | \JSON_PRESERVE_ZERO_FRACTION | \JSON_INVALID_UTF8_SUBSTITUTE;

    private string $buffer = '';
    /** The rest of a line too long to keep is still coming: drop it up to its end. */
    private bool $skipping = false;

    /**
     * The line that carries $message, newline included.
     *
     * @throws \InvalidArgumentException when a value cannot be written as JSON (INF or NAN)
     */
    public function encode(WorkerMessage $message): string
    {
        $fields = match (true) {
            $message instanceof Report => [
                'type' => MessageType::Report->value,
                'requests' => $message->requests,
                'inflight' => $message->inflight,
                'connections' => $message->connections,
                'memory' => $message->memory,
                'peak' => $message->peak,
                'lag' => $message->lag,
                'db' => [$message->dbBusy, $message->dbIdle, $message->dbWaiting],
                'ws' => $message->webSockets,
            ],
            $message instanceof MetricsReport => [
                'type' => MessageType::Metrics->value,
                'families' => \array_map(static fn (Family $family): array => $family->toArray(), $message->families),
            ],
            $message instanceof Retire => ['type' => MessageType::Retire->value, 'reason' => $message->reason->value],
            $message instanceof Exiting => [
                'type' => MessageType::Exiting->value,
                'reason' => $message->cause->value,
                'requests' => $message->requests,
                'inflight' => $message->inflight,
            ],
            $message instanceof BootFailed => ['type' => MessageType::BootError->value, 'message' => $message->error],
            default => ['type' => $message->type()->value],
        };
        $line = \json_encode($fields, self::JSON_FLAGS);
        if ($line === false) {
            throw new \InvalidArgumentException(\sprintf('The %s message cannot be encoded: %s', $message->type()->value, \json_last_error_msg()));
        }

        return $line . "\n";
    }

    /** Bytes read from the channel, in any pieces. */
    public function push(string $bytes): void
    {
        $this->buffer .= $bytes;
    }

    /**
     * The next whole message pushed, or null until a whole line is there.
     *
     * @throws MalformedMessage for a line that is no message; it is consumed, call again for the next
     */
    public function next(): ?WorkerMessage
    {
        while (($end = \strpos($this->buffer, "\n")) !== false) {
            $line = \substr($this->buffer, 0, $end);
            $this->buffer = \substr($this->buffer, $end + 1);
            if ($this->skipping) {
                // The end of the line dropped for its length: reported when it was dropped.
                $this->skipping = false;
                continue;
            }
            if (\strlen($line) > self::MAX_LINE) {
                throw MalformedMessage::inLine(\sprintf('a line longer than %d bytes', self::MAX_LINE), $line);
            }

            return $this->decode($line);
        }
        if (\strlen($this->buffer) > self::MAX_LINE) {
            $excerpt = $this->buffer;
            $this->buffer = '';
            $this->skipping = true;
            throw MalformedMessage::inLine(\sprintf('a line longer than %d bytes', self::MAX_LINE), $excerpt);
        }

        return null;
    }

    /** Whether bytes of a line wait for its end (at the channel's end: a message cut short). */
    public function hasPartialLine(): bool
    {
        return $this->buffer !== '' && !$this->skipping;
    }

    /**
     * One line, without its newline.
     *
     * @throws MalformedMessage
     */
    public function decode(string $line): WorkerMessage
    {
        $data = \json_decode($line, true);
        if (!\is_array($data)) {
            throw MalformedMessage::inLine('not a JSON object', $line);
        }
        $name = $data['type'] ?? null;
        $type = \is_string($name) ? MessageType::tryFrom($name) : null;
        if ($type === null) {
            throw MalformedMessage::inLine(\is_string($name) ? \sprintf('unknown message type "%s"', $name) : 'no message type', $line);
        }

        return match ($type) {
            MessageType::Ready => new Ready(),
            MessageType::Report => new Report(
                self::int($data, 'requests', $line),
                self::int($data, 'inflight', $line),
                self::int($data, 'connections', $line),
                self::int($data, 'memory', $line),
                self::int($data, 'peak', $line),
                self::float($data, 'lag', $line),
                ...self::database($data),
                // Absent from a worker of an older checkout: none.
                webSockets: \is_int($data['ws'] ?? null) && $data['ws'] >= 0 ? $data['ws'] : 0,
            ),
            MessageType::Retire => new Retire(
                RetireReason::tryFrom(self::string($data, 'reason', $line))
                    ?? throw MalformedMessage::inLine('unknown retire reason', $line),
            ),
            MessageType::BootError => new BootFailed(self::string($data, 'message', $line)),
            MessageType::Exiting => new Exiting(
                ExitCause::tryFrom(self::string($data, 'reason', $line))
                    ?? throw MalformedMessage::inLine('unknown exit reason', $line),
                self::int($data, 'requests', $line),
                self::int($data, 'inflight', $line),
            ),
            MessageType::Metrics => new MetricsReport(self::families($data, $line)),
        };
    }

    /** @param array<mixed> $data */
    private static function int(array $data, string $key, string $line): int
    {
        $value = $data[$key] ?? null;

        return \is_int($value) ? $value : throw self::field($key, 'an integer', $line);
    }

    /** @param array<mixed> $data */
    private static function float(array $data, string $key, string $line): float
    {
        $value = $data[$key] ?? null;

        return \is_float($value) || \is_int($value) ? (float) $value : throw self::field($key, 'a number', $line);
    }

    /** @param array<mixed> $data */
    private static function string(array $data, string $key, string $line): string
    {
        $value = $data[$key] ?? null;

        return \is_string($value) ? $value : throw self::field($key, 'a string', $line);
    }

    /**
     * The families of a metrics message; a family that does not read back is left out (the
     * others still count).
     *
     * @param array<mixed> $data
     *
     * @return list<Family>
     */
    private static function families(array $data, string $line): array
    {
        $families = $data['families'] ?? null;
        if (!\is_array($families) || !\array_is_list($families)) {
            throw self::field('families', 'a list', $line);
        }
        $read = [];
        foreach ($families as $family) {
            $family = Family::fromArray($family);
            if ($family !== null) {
                $read[] = $family;
            }
        }

        return $read;
    }

    private static function field(string $key, string $what, string $line): MalformedMessage
    {
        return MalformedMessage::inLine(\sprintf('"%s" must be %s', $key, $what), $line);
    }

    /**
     * A report's database figures (busy, idle, waiting); zeros from a worker that sent none.
     *
     * @param array<mixed> $data
     *
     * @return array{int, int, int}
     */
    private static function database(array $data): array
    {
        $db = $data['db'] ?? null;
        if (!\is_array($db) || \count($db) !== 3) {
            return [0, 0, 0];
        }
        $figures = [];
        foreach (\array_values($db) as $value) {
            $figures[] = \is_int($value) && $value >= 0 ? $value : 0;
        }

        return [$figures[0], $figures[1], $figures[2]];
    }
}
