<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql;

use Spindle\Database\Pgsql\Protocol\ServerMessage;

/**
 * An error from the server (an ErrorResponse: $server holds every field) or from the connection
 * (cannot connect, lost, malformed: SQLSTATE 08xxx). The message is what libpq shows
 * ("ERROR:  relation \"x\" does not exist\nLINE 1: …"); $server->message() is the bare text.
 */
final class PgsqlException extends \RuntimeException
{
    public function __construct(
        string $message,
        public readonly string $sqlState = '08006',
        public readonly ?ServerMessage $server = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
    }

    public static function fromServer(ServerMessage $error, ?string $query = null): self
    {
        return new self(ErrorFormat::format($error, $query), $error->sqlState(), $error);
    }

    /** Whether the connection is gone with it (a connection failure or a FATAL error). */
    public function isConnectionError(): bool
    {
        return $this->server === null ? str_starts_with($this->sqlState, '08') : $this->server->isFatal();
    }
}
