<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/**
 * Reads the protocol's basic types from one packet payload, front to back. Every read past the
 * end throws MysqlException 2027 (malformed packet). The static methods encode the same types.
 */
final class Buffer
{
    private int $offset = 0;
    private readonly int $length;

    public function __construct(private readonly string $data)
    {
        $this->length = \strlen($data);
    }

    public function remaining(): int
    {
        return $this->length - $this->offset;
    }

    public function atEnd(): bool
    {
        return $this->offset >= $this->length;
    }

    public function offset(): int
    {
        return $this->offset;
    }

    /** The next byte without consuming it. */
    public function peek(): int
    {
        $this->need(1);

        return \ord($this->data[$this->offset]);
    }

    public function skip(int $count): void
    {
        $this->need($count);
        $this->offset += $count;
    }

    public function int1(): int
    {
        $this->need(1);

        return \ord($this->data[$this->offset++]);
    }

    public function int2(): int
    {
        $this->need(2);
        $value = \ord($this->data[$this->offset]) | (\ord($this->data[$this->offset + 1]) << 8);
        $this->offset += 2;

        return $value;
    }

    public function int3(): int
    {
        $this->need(3);
        $d = $this->data;
        $o = $this->offset;
        $this->offset += 3;

        return \ord($d[$o]) | (\ord($d[$o + 1]) << 8) | (\ord($d[$o + 2]) << 16);
    }

    public function int4(): int
    {
        $this->need(4);
        /** @var array{1: int} $v */
        $v = unpack('V', $this->data, $this->offset);
        $this->offset += 4;

        return $v[1];
    }

    /** 8 bytes as a signed PHP int (two's complement). */
    public function int8(): int
    {
        $this->need(8);
        /** @var array{1: int} $v */
        $v = unpack('P', $this->data, $this->offset);
        $this->offset += 8;

        return $v[1];
    }

    public function float4(): float
    {
        $this->need(4);
        /** @var array{1: float} $v */
        $v = unpack('g', $this->data, $this->offset);
        $this->offset += 4;

        return $v[1];
    }

    public function float8(): float
    {
        $this->need(8);
        /** @var array{1: float} $v */
        $v = unpack('e', $this->data, $this->offset);
        $this->offset += 8;

        return $v[1];
    }

    /**
     * A length-encoded integer that must fit a PHP int (lengths, counts).
     *
     * @throws MysqlException on 0xFB (NULL marker), 0xFF, or a value above PHP_INT_MAX
     */
    public function lenencInt(): int
    {
        $value = $this->lenencUnsigned();
        if (\is_string($value)) {
            throw Errors::malformed('length-encoded integer out of range');
        }

        return $value;
    }

    /**
     * A length-encoded integer as unsigned 64-bit: above PHP_INT_MAX it is a numeric string.
     */
    public function lenencUnsigned(): int|string
    {
        $first = $this->int1();
        if ($first < 0xFB) {
            return $first;
        }

        return match ($first) {
            0xFC => $this->int2(),
            0xFD => $this->int3(),
            0xFE => self::unsigned64($this->int8()),
            default => throw Errors::malformed(sprintf('invalid length-encoded integer prefix 0x%02X', $first)),
        };
    }

    /** A length-encoded string; null for the NULL marker 0xFB (text rows). */
    public function lenencStringOrNull(): ?string
    {
        if ($this->peek() === 0xFB) {
            ++$this->offset;

            return null;
        }

        return $this->bytes($this->lenencInt());
    }

    public function lenencString(): string
    {
        return $this->bytes($this->lenencInt());
    }

    public function bytes(int $count): string
    {
        if ($count === 0) {
            return '';
        }
        $this->need($count);
        $value = substr($this->data, $this->offset, $count);
        $this->offset += $count;

        return $value;
    }

    /** A NUL-terminated string (the NUL is consumed, not returned). */
    public function nulString(): string
    {
        $end = strpos($this->data, "\0", $this->offset);
        if ($end === false) {
            throw Errors::malformed('unterminated string');
        }
        $value = substr($this->data, $this->offset, $end - $this->offset);
        $this->offset = $end + 1;

        return $value;
    }

    /** Everything up to the end of the payload. */
    public function rest(): string
    {
        $value = (string) substr($this->data, $this->offset);
        $this->offset = $this->length;

        return $value;
    }

    private function need(int $count): void
    {
        if ($count < 0 || $this->length - $this->offset < $count) {
            throw Errors::malformed(sprintf(
                'needed %d byte(s) at offset %d of a %d-byte packet',
                $count,
                $this->offset,
                $this->length,
            ));
        }
    }

    /** Unsigned reading of a 64-bit two's complement value. */
    public static function unsigned64(int $value): int|string
    {
        return $value >= 0 ? $value : sprintf('%u', $value);
    }

    public static function writeInt1(int $value): string
    {
        return \chr($value & 0xFF);
    }

    public static function writeInt2(int $value): string
    {
        return pack('v', $value & 0xFFFF);
    }

    public static function writeInt3(int $value): string
    {
        return substr(pack('V', $value & 0xFFFFFF), 0, 3);
    }

    public static function writeInt4(int $value): string
    {
        return pack('V', $value & 0xFFFFFFFF);
    }

    public static function writeInt8(int $value): string
    {
        return pack('P', $value);
    }

    public static function writeLenencInt(int $value): string
    {
        if ($value < 0) {
            throw new \InvalidArgumentException('length-encoded integers are unsigned');
        }

        return match (true) {
            $value < 0xFB => \chr($value),
            $value <= 0xFFFF => "\xFC" . pack('v', $value),
            $value <= 0xFFFFFF => "\xFD" . self::writeInt3($value),
            default => "\xFE" . pack('P', $value),
        };
    }

    public static function writeLenencString(string $value): string
    {
        return self::writeLenencInt(\strlen($value)) . $value;
    }
}
