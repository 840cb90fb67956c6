<?php

declare(strict_types=1);

use Nyholm\Psr7\Response;
use Psr\Http\Message\ServerRequestInterface;

// bin/spindle serve examples/hello-psr7.php
// The same answer through PSR-7: a ServerRequestInterface in, a ResponseInterface out.
return static fn (ServerRequestInterface $request): Response => new Response(200, ['Content-Type' => 'text/plain'], 'Hello World');
