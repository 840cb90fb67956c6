<?php

declare(strict_types=1);

use Nyholm\Psr7\Response;
use Psr\Http\Message\ServerRequestInterface;

// Answers with the URI and request target the application sees.
return static fn (ServerRequestInterface $request): Response => new Response(200, ['Content-Type' => 'application/json'], json_encode([
    'uri' => (string) $request->getUri(),
    'host' => $request->getUri()->getHost(),
    'port' => $request->getUri()->getPort(),
    'path' => $request->getUri()->getPath(),
    'query' => $request->getUri()->getQuery(),
    'target' => $request->getRequestTarget(),
], JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES));
