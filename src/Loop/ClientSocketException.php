<?php

declare(strict_types=1);

namespace Spindle\Loop;

/** A client socket could not be opened, or TLS not started on it; each client words its own error from this. */
final class ClientSocketException extends \RuntimeException
{
    /**
     * @param int $errno the system's error number (0 if unknown)
     * @param string $reason the system's words ('' if none)
     * @param list<string> $warnings what PHP reported during a failed TLS handshake
     */
    public function __construct(
        public readonly ClientSocketFailure $failure,
        public readonly int $errno,
        public readonly string $reason,
        public readonly array $warnings = [],
    ) {
        parent::__construct(match ($failure) {
            ClientSocketFailure::Tls => 'TLS handshake failed: ' . ($warnings === [] ? 'the connection was closed' : \implode('; ', $warnings)),
            ClientSocketFailure::TimedOut, ClientSocketFailure::TlsTimedOut => $failure->name . ': timed out',
            default => $reason !== '' ? $reason : 'connection failed',
        }, $errno);
    }
}
