<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/**
 * An error from the server (with its SQLSTATE and error code) or from the connection
 * (lost, refused, malformed packet: SQLSTATE HY000 and a client error code in the 2000 range,
 * as the MySQL client library numbers them: 2002 cannot connect, 2006 gone away, 2013 lost
 * during query, 2027 malformed packet).
 */
final class MysqlException extends \RuntimeException
{
    public function __construct(
        string $message,
        public readonly int $errorCode,
        public readonly string $sqlState = 'HY000',
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, $errorCode, $previous);
    }
}
