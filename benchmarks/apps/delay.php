<?php
declare(strict_types=1);
use Nyholm\Psr7\Response;
return static function (Psr\Http\Message\ServerRequestInterface $request): Response {
    Spindle\delay(0.1);
    return new Response(200, ['Content-Type' => 'text/plain'], 'slept');
};
