<?php

declare(strict_types=1);

namespace Spindle\Http;

/** A response body read from disk in chunks while it is sent, never loaded whole into memory. */
final class FileBody
{
    public function __construct(
        public readonly string $path,
        public readonly int $offset,
        public readonly int $length,
    ) {
    }
}
