<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/**
 * OK_Packet (header 0x00, or 0xFE when it ends a result set under CLIENT_DEPRECATE_EOF). Under
 * CLIENT_SESSION_TRACK the info is length-encoded (absent when empty and nothing changed) and,
 * with SERVER_SESSION_STATE_CHANGED, followed by the session state changes (kept raw).
 */
final class OkPacket
{
    public function __construct(
        public readonly int $affectedRows,
        public readonly int|string $lastInsertId,
        public readonly int $statusFlags,
        public readonly int $warnings,
        public readonly string $info,
        /** the session state changes (CLIENT_SESSION_TRACK), unparsed; '' when none */
        public readonly string $sessionState = '',
    ) {
    }

    /** @throws MysqlException 2027 */
    public static function parse(string $payload, bool $sessionTrack = false): self
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
        $state = '';
        if (!$sessionTrack) {
            $info = $buffer->rest();
        } else {
            $info = $buffer->atEnd() ? '' : $buffer->lenencString();
            if (($status & ServerStatus::SESSION_STATE_CHANGED) !== 0 && !$buffer->atEnd()) {
                $state = $buffer->lenencString();
            }
        }

        return new self(\is_int($affected) ? $affected : PHP_INT_MAX, $insertId, $status, $warnings, $info, $state);
    }
}
