<?php

declare(strict_types=1);

namespace Spindle\Server;

use Spindle\Http\HttpLimits;

/** Everything `spindle serve` was told. */
final class ServerOptions
{
    public function __construct(
        public readonly string $app,
        public readonly string $host = '127.0.0.1',
        public readonly int $port = 8080,
        public readonly int $workers = 1,
        public readonly int $concurrency = 100,
        public readonly ?string $staticDir = null,
        public readonly HttpLimits $limits = new HttpLimits(),
        public readonly float $blockThreshold = 0.5,
        public readonly float $drainTimeout = 30.0,
        public readonly bool $debug = false,
        public readonly ?string $uploadDir = null,
    ) {
        if ($workers < 1) {
            throw new ServerError(\sprintf('--workers must be at least 1, got %d', $workers));
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
    }

    public function address(?int $port = null): string
    {
        $host = \str_contains($this->host, ':') ? '[' . $this->host . ']' : $this->host;

        return $host . ':' . ($port ?? $this->port);
    }
}
