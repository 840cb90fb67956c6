<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/** OK_Packet (header 0x00, or 0xFE when it ends a result set under CLIENT_DEPRECATE_EOF). */
final class OkPacket
{
    public function __construct(
        public readonly int $affectedRows,
        public readonly int|string $lastInsertId,
        public readonly int $statusFlags,
        public readonly int $warnings,
        public readonly string $info,
    ) {
    }

    /** @throws MysqlException 2027 */
    public static function parse(string $payload): self
    {
        $buffer = new Buffer($payload);
        $header = $buffer->int1();
        if ($header !== 0x00 && $header !== 0xFE) {
            throw Errors::malformed(sprintf('OK packet with header 0x%02X', $header));
        }
        $affected = $buffer->lenencUnsigned();
        $insertId = $buffer->lenencUnsigned();
        $status = $buffer->int2();
        $warnings = $buffer->int2();
        $info = $buffer->rest();

        return new self(\is_int($affected) ? $affected : PHP_INT_MAX, $insertId, $status, $warnings, $info);
    }
}
