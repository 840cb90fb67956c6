<?php

declare(strict_types=1);

namespace Spindle\Http;

/** Limits and timeouts for one HTTP/1.1 connection. Sizes in bytes, times in seconds. */
final class HttpLimits
{
    /**
     * @param float $bodyTimeout      seconds a request body may stall between two reads (and a
     *                                response may wait for a client that does not read)
     * @param int $bodyMinRate        bytes per second a request body must keep up, on average,
     *                                once its $bodyRateGrace is over: a body has $bodyRateGrace
     *                                seconds from its head, plus one for every $bodyMinRate bytes
     *                                that arrived (0: no floor)
     * @param int $bodyBufferSize     bytes of one request body held in memory; a larger body goes to
     *                                a temporary file. Also what a connection reads ahead of the
     *                                request that runs (pipelining) before it stops reading
     * @param int $bodyBufferTotal    bytes of request bodies one worker holds in memory, all
     *                                connections together; beyond it bodies go to temporary files
     */
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
        public readonly int $bodyMinRate = 500,
        public readonly float $bodyRateGrace = 20.0,
        public readonly int $bodyBufferSize = 64 * 1024,
        public readonly int $bodyBufferTotal = 16 * 1024 * 1024,
    ) {
        foreach (['maxRequestLine' => $maxRequestLine, 'maxHeaderSize' => $maxHeaderSize, 'maxHeaderCount' => $maxHeaderCount, 'maxPipelined' => $maxPipelined, 'writeHighWater' => $writeHighWater] as $name => $value) {
            if ($value < 1) {
                throw new \InvalidArgumentException(\sprintf('%s must be at least 1, got %d', $name, $value));
            }
        }
        foreach (['maxBodySize' => $maxBodySize, 'maxFileUploads' => $maxFileUploads, 'bodyMinRate' => $bodyMinRate, 'bodyBufferSize' => $bodyBufferSize, 'bodyBufferTotal' => $bodyBufferTotal] as $name => $value) {
            if ($value < 0) {
                throw new \InvalidArgumentException(\sprintf('%s must not be negative, got %d', $name, $value));
            }
        }
        foreach (['headerTimeout' => $headerTimeout, 'bodyTimeout' => $bodyTimeout, 'keepAliveTimeout' => $keepAliveTimeout] as $name => $value) {
            if ($value <= 0) {
                throw new \InvalidArgumentException(\sprintf('%s must be positive, got %s', $name, $value));
            }
        }
        if ($bodyRateGrace < 0) {
            throw new \InvalidArgumentException(\sprintf('bodyRateGrace must not be negative, got %s', $bodyRateGrace));
        }
    }
}
