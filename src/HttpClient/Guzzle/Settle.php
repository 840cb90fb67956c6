<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

use GuzzleHttp\Promise\Promise;
use Psr\Http\Message\ResponseInterface;

/** @internal Resolves or rejects a handler's promise when its transfer ends. */
final class Settle
{
    public ?Promise $promise = null;

    public function settle(?ResponseInterface $response, ?\Throwable $error): void
    {
        if ($error !== null) {
            $this->promise?->reject($error);
        } else {
            $this->promise?->resolve($response);
        }
    }
}
