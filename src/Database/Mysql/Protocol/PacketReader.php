<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/**
 * Cuts the server's byte stream into packet payloads: a 3-byte length, a sequence id and the
 * payload. A payload of exactly 0xFFFFFF bytes continues in the next packet; next() returns the
 * joined payload. Sequence ids are checked: a packet out of order is a malformed stream.
 */
final class PacketReader
{
    public const MAX_PACKET = 0xFFFFFF;

    private string $buffer = '';
    private int $offset = 0;
    /**
     * While a large packet is incomplete, arriving bytes wait here and are joined once it is
     * whole (rather than appended to $buffer chunk by chunk).
     *
     * @var list<string>
     */
    private array $parts = [];
    private int $partsLength = 0;
    /** Bytes past $offset that the incomplete large packet needs; 0 when not waiting. */
    private int $need = 0;
    private int $sequence = 0;
    /** @var list<string> chunks of a payload that continues in the next packet */
    private array $pending = [];
    private int $pendingLength = 0;

    /** @param int $maxPayload the largest joined payload accepted */
    public function __construct(private readonly int $maxPayload = 1 << 30)
    {
    }

    public function push(string $bytes): void
    {
        if ($this->need > 0) {
            $this->parts[] = $bytes;
            $this->partsLength += \strlen($bytes);
            if (\strlen($this->buffer) - $this->offset + $this->partsLength >= $this->need) {
                $this->buffer = substr($this->buffer, $this->offset) . implode('', $this->parts);
                $this->offset = 0;
                $this->parts = [];
                $this->partsLength = 0;
                $this->need = 0;
            }

            return;
        }
        if ($this->offset > 0 && ($this->offset >= 1 << 20 || $this->offset === \strlen($this->buffer))) {
            $this->buffer = (string) substr($this->buffer, $this->offset);
            $this->offset = 0;
        }
        $this->buffer .= $bytes;
    }

    /** The sequence id the next packet (from either side) carries. */
    public function sequence(): int
    {
        return $this->sequence;
    }

    public function setSequence(int $sequence): void
    {
        $this->sequence = $sequence & 0xFF;
    }

    /** Bytes received and not yet returned as a payload. */
    public function buffered(): int
    {
        return \strlen($this->buffer) - $this->offset + $this->partsLength + $this->pendingLength;
    }

    /** The raw bytes received and not yet cut into payloads (complete packets of a payload not yet whole excluded). */
    public function unconsumed(): string
    {
        return substr($this->buffer, $this->offset) . implode('', $this->parts);
    }

    /**
     * The next complete payload, or null until more bytes arrive.
     *
     * @throws MysqlException 2027 on a sequence id out of order or an oversized payload
     */
    public function next(): ?string
    {
        while (true) {
            $buffer = $this->buffer;
            $offset = $this->offset;
            if (\strlen($buffer) - $offset < 4) {
                return null;
            }
            $length = \ord($buffer[$offset]) | (\ord($buffer[$offset + 1]) << 8) | (\ord($buffer[$offset + 2]) << 16);
            $sequence = \ord($buffer[$offset + 3]);
            if ($sequence !== $this->sequence) {
                throw Errors::malformed(sprintf('packet sequence id %d where %d was expected', $sequence, $this->sequence));
            }
            if ($this->pendingLength + $length > $this->maxPayload) {
                throw Errors::malformed(sprintf('payload larger than %d bytes', $this->maxPayload));
            }
            if (\strlen($buffer) - $offset < 4 + $length) {
                if ($length >= 1 << 16) {
                    $this->need = 4 + $length;
                }

                return null;
            }
            $chunk = $length === 0 ? '' : substr($buffer, $offset + 4, $length);
            $this->offset = $offset + 4 + $length;
            $this->sequence = ($sequence + 1) & 0xFF;
            if ($length === self::MAX_PACKET) {
                $this->pending[] = $chunk;
                $this->pendingLength += $length;
                continue;
            }
            if ($this->pending === []) {
                return $chunk;
            }
            $this->pending[] = $chunk;
            $payload = implode('', $this->pending);
            $this->pending = [];
            $this->pendingLength = 0;

            return $payload;
        }
    }

    /**
     * Consumes $packets whole packets at once if the buffered bytes start with exactly $bytes
     * (their framing included, the first at the expected sequence id): a result's column
     * definitions that repeat those of an earlier result. False, consuming nothing, otherwise.
     * $bytes must hold $packets consecutive packets each shorter than MAX_PACKET.
     */
    public function skipIfBuffered(string $bytes, int $packets): bool
    {
        $length = \strlen($bytes);
        if ($this->need > 0
            || $this->pending !== []
            || $length < 4
            || \strlen($this->buffer) - $this->offset < $length
            || \ord($bytes[3]) !== $this->sequence
            || substr_compare($this->buffer, $bytes, $this->offset, $length) !== 0) {
            return false;
        }
        $this->offset += $length;
        $this->sequence = ($this->sequence + $packets) & 0xFF;

        return true;
    }

    /**
     * Frames one payload as packets starting at $sequence; a payload of 16 MiB or more is split,
     * ending with a shorter (possibly empty) packet.
     *
     * @return array{string, int} the bytes and the sequence id after the last packet
     */
    public static function frame(string $payload, int $sequence): array
    {
        $length = \strlen($payload);
        $out = '';
        $offset = 0;
        do {
            $size = min(self::MAX_PACKET, $length - $offset);
            $out .= Buffer::writeInt3($size) . \chr($sequence & 0xFF) . substr($payload, $offset, $size);
            $offset += $size;
            $sequence = ($sequence + 1) & 0xFF;
        } while ($size === self::MAX_PACKET);

        return [$out, $sequence];
    }
}
