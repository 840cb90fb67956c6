<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/**
 * Per-request settings. Timeouts in seconds, null for none: $connectTimeout covers DNS, TCP and
 * TLS; $idleTimeout each wait for the next bytes; $timeout the whole exchange, body included.
 */
final class Options
{
    /**
     * @param \Closure(Response): void|null $onHeaders called once the final head is in, before the body is read
     * @param bool $advertiseEncodings with $decodeContent, send Accept-Encoding: gzip, deflate when the request has none
     */
    public function __construct(
        public readonly ?float $connectTimeout = 30.0,
        public readonly ?float $idleTimeout = null,
        public readonly ?float $timeout = null,
        public readonly TlsOptions $tls = new TlsOptions(),
        public readonly int $maxRedirects = 0,
        public readonly bool $strictRedirects = false,
        public readonly bool $decodeContent = true,
        public readonly ?string $proxy = null,
        public readonly ?\Closure $onHeaders = null,
        public readonly bool $advertiseEncodings = true,
    ) {
    }
}
