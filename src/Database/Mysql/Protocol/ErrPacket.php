<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/** ERR_Packet: 0xFF, error code, optional '#' and 5-character SQLSTATE, message. */
final class ErrPacket
{
    private function __construct()
    {
    }

    /**
     * The server's error as an exception (returned, not thrown).
     *
     * @throws MysqlException 2027 when the packet itself is malformed
     */
    public static function parse(string $payload): MysqlException
    {
        $buffer = new Buffer($payload);
        if ($buffer->int1() !== 0xFF) {
            throw Errors::malformed('ERR packet without 0xFF header');
        }
        $code = $buffer->int2();
        $sqlState = 'HY000';
        if (!$buffer->atEnd() && $buffer->peek() === 0x23) {
            $buffer->skip(1);
            $sqlState = $buffer->bytes(5);
        }

        return new MysqlException($buffer->rest(), $code, $sqlState);
    }
}
