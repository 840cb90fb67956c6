<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\Tls\TlsSettings;
use Spindle\Http\HttpLimits;
use Spindle\Loop\EventLoopKind;
use Spindle\Server\AccessLog\AccessLogFormat;

/** Everything `spindle serve` was told. */
final class ServerOptions
{
    public function __construct(
        public readonly string $app,
        public readonly string $host = '127.0.0.1',
        public readonly int $port = 8080,
        public readonly int $workers = 1,
        public readonly int $concurrency = 100,
        /** Files served ahead of the app: an absolute directory (see AppPaths), or null for none. */
        public readonly ?string $staticDir = null,
        public readonly HttpLimits $limits = new HttpLimits(),
        public readonly float $blockThreshold = 0.5,
        public readonly float $drainTimeout = 30.0,
        public readonly bool $debug = false,
        public readonly ?string $uploadDir = null,
        /** Recycle a worker after this many requests (0: never); each worker adds up to 10% jitter. */
        public readonly int $maxRequests = 0,
        /** Recycle a worker whose memory passes this many MiB after a request (0: never). */
        public readonly int $maxMemory = 0,
        /** Recycle a worker after this many seconds (0: never). */
        public readonly float $ttl = 0.0,
        /** A request running longer gets a 504 (0: no limit). */
        public readonly float $requestTimeout = 60.0,
        /** Seconds a worker may stay unresponsive past the request timeout before the master kills it. */
        public readonly float $killGrace = 5.0,
        public readonly ?string $pidFile = null,
        public readonly bool $daemon = false,
        public readonly ?string $logFile = null,
        public readonly bool $watch = false,
        /**
         * Connections one worker holds open at once; further ones wait in the listening socket's
         * queue. On select() (without the ev, event or uv extension) the loop cannot watch a
         * descriptor numbered 1024 or above; with epoll a worker raises its descriptor limit to
         * hold them (see Worker).
         */
        public readonly int $maxConnections = 512,
        /**
         * The directory a worker changes to before it boots the app (see AppPaths), absolute;
         * null: the one it was started in.
         */
        public readonly ?string $workingDirectory = null,
        /** `--access-log`: a file (absolute), "-" for standard output, null for none. */
        public readonly ?string $accessLog = null,
        public readonly AccessLogFormat $accessLogFormat = AccessLogFormat::Combined,
        /** `--metrics`: HOST:PORT of the master's metrics listener, null for none. */
        public readonly ?string $metrics = null,
        public readonly ?string $healthPath = null,
        public readonly ?string $readyPath = null,
        public readonly TrustedProxies $trustedProxies = new TrustedProxies([]),
        /** `--event-loop`, resolved: Select (the loop's own driver) or Epoll. */
        public readonly EventLoopKind $eventLoop = EventLoopKind::Select,
        /** `--task-workers`: processes that run Spindle\task() work (0: none, task() runs in place). */
        public readonly int $taskWorkers = 0,
        /**
         * `--check-state`: after each request, the framework bridges warn about state the app
         * keeps across requests (a development tool; Bridge\StateCheck).
         */
        public readonly bool $checkState = false,
        /** `--tls-cert`/`--tls-key`: HTTPS (and HTTP/2 by ALPN) on the listener; null: plain HTTP (and h2c). */
        public readonly ?TlsSettings $tls = null,
        /** `--early-hints-http1`: interim responses (103) to HTTP/1.1 clients too (HTTP/2 always gets them). */
        public readonly bool $earlyHintsHttp1 = false,
        /** `--ws-max-connections`: WebSocket connections one worker holds; a handshake past them gets 503 (0: --max-connections alone). */
        public readonly int $wsMaxConnections = 0,
        /** `--ws-max-per-ip`: WebSocket connections one client address holds on a worker; a handshake past them gets 429 (0: no limit). */
        public readonly int $wsMaxPerIp = 0,
        /** `--ws-open-timeout`: seconds a WebSocket client has after the 101 to send a first byte before it is pinged (and dropped without an answer); 0: the idle timeout only. */
        public readonly float $wsOpenTimeout = 10.0,
    ) {
        if ($eventLoop === EventLoopKind::Auto) {
            throw new ServerError('The event loop must be resolved to select or epoll (EventLoopKind::resolve())');
        }
        foreach (['--health-path' => $healthPath, '--ready-path' => $readyPath] as $name => $path) {
            if ($path !== null && !\str_starts_with($path, '/')) {
                throw new ServerError(\sprintf('%s must start with "/", got "%s"', $name, $path));
            }
        }
        if ($metrics !== null && \preg_match('/^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/D', $metrics) !== 1) {
            throw new ServerError(\sprintf('--metrics must be HOST:PORT, got "%s"', $metrics));
        }
        foreach (['--max-requests' => $maxRequests, '--max-memory' => $maxMemory, '--task-workers' => $taskWorkers, '--ws-max-connections' => $wsMaxConnections, '--ws-max-per-ip' => $wsMaxPerIp] as $name => $value) {
            if ($value < 0) {
                throw new ServerError(\sprintf('%s must not be negative, got %d', $name, $value));
            }
        }
        foreach (['--ttl' => $ttl, '--request-timeout' => $requestTimeout, '--drain-timeout' => $drainTimeout, '--kill-grace' => $killGrace, '--ws-open-timeout' => $wsOpenTimeout] as $name => $value) {
            if ($value < 0) {
                throw new ServerError(\sprintf('%s must not be negative, got %s', $name, $value));
            }
        }
        if ($workers < 1) {
            throw new ServerError(\sprintf('--workers must be at least 1, got %d', $workers));
        }
        if ($maxConnections < 1) {
            throw new ServerError(\sprintf('--max-connections must be at least 1, got %d', $maxConnections));
        }
        if ($concurrency < 1) {
            throw new ServerError(\sprintf('--concurrency must be at least 1, got %d', $concurrency));
        }
        if ($port < 0 || $port > 65535) {
            throw new ServerError(\sprintf('--port must be between 0 and 65535, got %d', $port));
        }
        if ($staticDir !== null && !\is_dir($staticDir)) {
            throw new ServerError(\sprintf('--static-dir %s is not a directory', $staticDir));
        }
        if ($workingDirectory !== null && !\is_dir($workingDirectory)) {
            throw new ServerError(\sprintf('The working directory %s is not a directory', $workingDirectory));
        }
    }

    /** How the listener is reached: "https" with --tls-cert, else "http". */
    public function scheme(): string
    {
        return $this->tls === null ? 'http' : 'https';
    }

    public function address(?int $port = null): string
    {
        $host = \str_contains($this->host, ':') ? '[' . $this->host . ']' : $this->host;

        return $host . ':' . ($port ?? $this->port);
    }
}
