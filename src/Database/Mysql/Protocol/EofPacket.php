<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/** EOF_Packet: 0xFE, warnings, status flags (a payload shorter than 9 bytes). */
final class EofPacket
{
    public function __construct(
        public readonly int $warnings,
        public readonly int $statusFlags,
    ) {
    }

    /** Whether a payload is an EOF packet rather than a row or data starting with 0xFE. */
    public static function is(string $payload): bool
    {
        return $payload !== '' && $payload[0] === "\xFE" && \strlen($payload) < 9;
    }

    /** @throws MysqlException 2027 */
    public static function parse(string $payload): self
    {
        $buffer = new Buffer($payload);
        if ($buffer->int1() !== 0xFE) {
            throw Errors::malformed('EOF packet without 0xFE header');
        }
        if ($buffer->atEnd()) {
            return new self(0, 0);
        }

        return new self($buffer->int2(), $buffer->int2());
    }
}
