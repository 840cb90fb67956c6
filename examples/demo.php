<?php

declare(strict_types=1);

use Nyholm\Psr7\Response;
use Psr\Http\Message\ServerRequestInterface;
use Spindle\Bridge\Psr15\IteratorStream;

/*
 * Spindle's bundled demo: `bin/spindle serve` and open http://127.0.0.1:8080
 *
 *   /            this page
 *   /hello       plain text
 *   /sleep?s=1   waits without blocking the worker (try many at once)
 *   /events      Server-Sent Events, one every 0.5 s
 *   /upload      POST a multipart form: lists the files received
 */
$_ = static fn (mixed $v): string => htmlspecialchars((string) $v);
$started = time();
$served = 0;

return static function (ServerRequestInterface $request) use ($_, $started, &$served): Response {
    ++$served;
    $path = $request->getUri()->getPath();

    return match ($path) {
        '/' => new Response(200, ['Content-Type' => 'text/html; charset=utf-8'], <<<HTML
            <!doctype html><meta charset="utf-8"><title>Spindle</title>
            <h1>Spindle is serving this page</h1>
            <p>Worker pid {$_(getmypid())}, up {$_(time() - $started)} s, {$_($served)} requests served by this worker.</p>
            <ul>
              <li><a href="/hello">/hello</a></li>
              <li><a href="/sleep?s=1">/sleep?s=1</a>: waits one second without holding up other requests</li>
              <li><a href="/events">/events</a>: a Server-Sent Events stream</li>
            </ul>
            <form method="post" action="/upload" enctype="multipart/form-data">
              <input type="file" name="files[]" multiple> <button>Upload</button>
            </form>
            HTML),
        '/hello' => new Response(200, ['Content-Type' => 'text/plain'], 'Hello World'),
        '/sleep' => (static function () use ($request): Response {
            $seconds = min(10.0, max(0.0, (float) ($request->getQueryParams()['s'] ?? 1)));
            Spindle\delay($seconds);

            return new Response(200, ['Content-Type' => 'text/plain'], sprintf("Slept %.2f s\n", $seconds));
        })(),
        '/events' => new Response(200, ['Content-Type' => 'text/event-stream', 'Cache-Control' => 'no-cache'], new IteratorStream((static function () {
            for ($i = 1; $i <= 10; ++$i) {
                yield "id: {$i}\ndata: tick {$i} at " . date('H:i:s') . "\n\n";
                Spindle\delay(0.5);
            }
        })())),
        '/upload' => (static function () use ($request): Response {
            $lines = [];
            $files = $request->getUploadedFiles();
            array_walk_recursive($files, static function ($file) use (&$lines): void {
                $lines[] = sprintf('%s (%d bytes, %s)', $file->getClientFilename(), $file->getSize(), $file->getClientMediaType());
            });

            return new Response(200, ['Content-Type' => 'text/plain; charset=utf-8'], $lines === [] ? "No files received\n" : implode("\n", $lines) . "\n");
        })(),
        default => new Response(404, ['Content-Type' => 'text/plain'], "Not Found\n"),
    };
};
