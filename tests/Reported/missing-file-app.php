<?php

declare(strict_types=1);

use Spindle\Http\FileBody;
use Spindle\Http\Request;
use Spindle\Http\Response;

// Answers /missing with a FileBody whose file does not exist, everything else with "ok".
return static fn (Request $request): Response => $request->path === '/missing'
    ? new Response(200, ['Content-Type' => ['application/octet-stream']], new FileBody(__DIR__ . '/no-such-file', 0, 10))
    : new Response(200, ['Content-Type' => ['text/plain']], 'ok');
