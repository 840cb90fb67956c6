<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/** The redirect limit was reached; $response is the last redirect received (its body closed). */
final class TooManyRedirects extends HttpClientException
{
    public function __construct(string $message, public readonly Response $response)
    {
        parent::__construct($message);
    }
}
