<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/** A connect, idle-read or total timeout expired; the connection was closed. */
final class TimeoutException extends HttpClientException
{
    public function __construct(string $message, public readonly TimeoutKind $kind)
    {
        parent::__construct($message);
    }
}
