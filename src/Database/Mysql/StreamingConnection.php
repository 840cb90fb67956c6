<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql;

/**
 * A connection that can also stream a command's rows as they arrive (unbuffered, like
 * mysql_use_result()) instead of reading the whole answer first. Until the ResultStream is
 * complete (read to the end or drained) the connection runs no other command: any other call
 * fails with 2014.
 */
interface StreamingConnection extends Connection
{
    /**
     * COM_QUERY; returns once the first result set's columns (or its OK, or an error) arrived.
     *
     * @throws MysqlException the error of the first statement
     */
    public function queryStream(string $sql): ResultStream;

    /**
     * COM_STMT_EXECUTE, streamed.
     *
     * @param list<mixed> $params
     *
     * @throws MysqlException
     */
    public function executeStream(PreparedStatement $statement, array $params): ResultStream;
}
