<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Psr18;

use Psr\Http\Client\RequestExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Spindle\HttpClient\HttpClientException;

/** PSR-18: the request cannot be sent as it is (not an absolute http(s) URL, an invalid header). */
final class RequestException extends HttpClientException implements RequestExceptionInterface
{
    public function __construct(string $message, private readonly RequestInterface $request, ?\Throwable $previous = null)
    {
        parent::__construct($message, 0, $previous);
    }

    public function getRequest(): RequestInterface
    {
        return $this->request;
    }
}
