<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/**
 * Reads the fields of one message body, checking that each one is within the body and that
 * nothing is left over.
 *
 * @internal
 */
final class Cursor
{
    private int $at = 0;
    private readonly int $length;

    public function __construct(private readonly string $body, private readonly MessageType $type)
    {
        $this->length = \strlen($body);
    }

    public function int32(): int
    {
        $b = $this->bytes(4);

        return (\ord($b[0]) << 24) | (\ord($b[1]) << 16) | (\ord($b[2]) << 8) | \ord($b[3]);
    }

    public function signed32(): int
    {
        $value = $this->int32();

        return $value >= 0x80000000 ? $value - 0x100000000 : $value;
    }

    public function int16(): int
    {
        $b = $this->bytes(2);

        return (\ord($b[0]) << 8) | \ord($b[1]);
    }

    public function signed16(): int
    {
        $value = $this->int16();

        return $value >= 0x8000 ? $value - 0x10000 : $value;
    }

    public function cstring(): string
    {
        $nul = strpos($this->body, "\0", $this->at);
        if ($nul === false) {
            throw $this->malformed('unterminated string');
        }
        $value = substr($this->body, $this->at, $nul - $this->at);
        $this->at = $nul + 1;

        return $value;
    }

    public function bytes(int $count): string
    {
        if ($this->at + $count > $this->length) {
            throw $this->malformed('too short');
        }
        $value = substr($this->body, $this->at, $count);
        $this->at += $count;

        return $value;
    }

    public function rest(): string
    {
        $value = substr($this->body, $this->at);
        $this->at = $this->length;

        return $value;
    }

    public function end(): void
    {
        if ($this->at !== $this->length) {
            throw $this->malformed(sprintf('%d bytes left over', $this->length - $this->at));
        }
    }

    private function malformed(string $what): ProtocolError
    {
        return new ProtocolError(sprintf('Malformed %s message from the server: %s', $this->type->name, $what));
    }
}
