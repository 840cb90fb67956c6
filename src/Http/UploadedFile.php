<?php

declare(strict_types=1);

namespace Spindle\Http;

/** One file received in a multipart/form-data body, already written to a temporary file. */
final class UploadedFile
{
    public function __construct(
        public readonly string $tmpPath,
        public readonly int $size,
        public readonly int $error,
        public readonly ?string $clientFilename,
        public readonly ?string $clientMediaType,
    ) {
    }
}
