<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

use GuzzleHttp\Promise\Promise;
use GuzzleHttp\Promise\PromiseInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * @internal Resolves or rejects a handler's promise when its transfer ends, unless it was settled
 * meanwhile (cancelled, or rejected by an interrupted wait): nothing is thrown onto the loop then.
 */
final class Settle
{
    public ?Promise $promise = null;

    public function settle(?ResponseInterface $response, ?\Throwable $error): void
    {
        $promise = $this->promise;
        if ($promise === null || $promise->getState() !== PromiseInterface::PENDING) {
            return;
        }
        if ($error !== null) {
            $promise->reject($error);
        } else {
            $promise->resolve($response);
        }
    }
}
