<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Psr18;

use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Spindle\HttpClient\HttpClientException;

/** PSR-18: no response could be had (connect, TLS, timeout, a broken or early-closed response). */
final class NetworkException extends HttpClientException implements NetworkExceptionInterface
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
