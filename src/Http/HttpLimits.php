<?php

declare(strict_types=1);

namespace Spindle\Http;

/** Limits and timeouts for one HTTP/1.1 connection. Sizes in bytes, times in seconds. */
final class HttpLimits
{
    public function __construct(
        public readonly int $maxRequestLine = 8192,
        public readonly int $maxHeaderSize = 16384,
        public readonly int $maxHeaderCount = 100,
        public readonly int $maxBodySize = 16 * 1024 * 1024,
        public readonly float $headerTimeout = 15.0,
        public readonly float $bodyTimeout = 60.0,
        public readonly float $keepAliveTimeout = 30.0,
        public readonly int $maxPipelined = 32,
        public readonly int $writeHighWater = 1024 * 1024,
        public readonly int $maxRequestsPerConnection = 0,
        /** Files one multipart request may upload; later ones are dropped, as PHP's max_file_uploads does. */
        public readonly int $maxFileUploads = 20,
    ) {
        foreach (['maxRequestLine' => $maxRequestLine, 'maxHeaderSize' => $maxHeaderSize, 'maxHeaderCount' => $maxHeaderCount, 'maxPipelined' => $maxPipelined, 'writeHighWater' => $writeHighWater] as $name => $value) {
            if ($value < 1) {
                throw new \InvalidArgumentException(\sprintf('%s must be at least 1, got %d', $name, $value));
            }
        }
        foreach (['maxBodySize' => $maxBodySize, 'maxFileUploads' => $maxFileUploads] as $name => $value) {
            if ($value < 0) {
                throw new \InvalidArgumentException(\sprintf('%s must not be negative, got %d', $name, $value));
            }
        }
        foreach (['headerTimeout' => $headerTimeout, 'bodyTimeout' => $bodyTimeout, 'keepAliveTimeout' => $keepAliveTimeout] as $name => $value) {
            if ($value <= 0) {
                throw new \InvalidArgumentException(\sprintf('%s must be positive, got %s', $name, $value));
            }
        }
    }
}
