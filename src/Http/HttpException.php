<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * A request that cannot be served as sent. Carries the status the client gets
 * and whether the connection must be closed afterwards (framing can no longer be trusted).
 */
final class HttpException extends \RuntimeException
{
    public function __construct(
        public readonly int $status,
        string $message,
        public readonly bool $closeConnection = true,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, $status, $previous);
    }
}
