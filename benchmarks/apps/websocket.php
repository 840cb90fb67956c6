<?php

declare(strict_types=1);

use Spindle\Bridge\Pusher\PusherApp;
use Spindle\Bridge\Pusher\PusherEndpoints;
use Spindle\Bridge\Pusher\PusherServer;
use Spindle\Http\Request;
use Spindle\Http\RequestHandler;
use Spindle\Http\Response;
use Spindle\Http\WebSocket\ClosureWebSocketHandler;
use Spindle\Http\WebSocket\WebSocketUpgrade;

// The app of benchmarks/websocket-idle.php and websocket-broadcast.php: a WebSocket at /ws that
// does nothing with what it gets (an idle connection is what is measured), the Pusher protocol
// (app id "1", key "app-key", secret "app-secret") at /app/app-key with its HTTP API at /apps/1/…,
// and /stats: this worker's pid, memory (PHP's and the process's resident set) and CPU seconds.
return new class implements RequestHandler {
    private readonly PusherEndpoints $pusher;
    private readonly ClosureWebSocketHandler $idle;

    public function __construct()
    {
        $this->pusher = new PusherEndpoints(new PusherServer([new PusherApp('1', 'app-key', 'app-secret')]));
        $this->idle = new ClosureWebSocketHandler();
    }

    public function handle(Request $request): Response
    {
        if ($request->path === '/ws') {
            return WebSocketUpgrade::accept($request, $this->idle);
        }
        if ($request->path === '/stats') {
            \gc_collect_cycles();
            $usage = \getrusage() ?: [];
            $rss = \preg_match('/^VmRSS:\s+(\d+) kB/m', (string) \file_get_contents('/proc/self/status'), $m) === 1 ? (int) $m[1] * 1024 : 0;

            return new Response(200, ['Content-Type' => 'application/json'], \json_encode([
                'pid' => \getmypid(),
                'memory' => \memory_get_usage(),
                'memory_real' => \memory_get_usage(true),
                'rss' => $rss,
                'cpu' => ($usage['ru_utime.tv_sec'] ?? 0) + ($usage['ru_utime.tv_usec'] ?? 0) / 1e6 + ($usage['ru_stime.tv_sec'] ?? 0) + ($usage['ru_stime.tv_usec'] ?? 0) / 1e6,
            ], \JSON_THROW_ON_ERROR));
        }

        return $this->pusher->handle($request) ?? new Response(404, [], "not found\n");
    }
};
