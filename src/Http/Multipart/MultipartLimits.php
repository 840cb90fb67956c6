<?php

declare(strict_types=1);

namespace Spindle\Http\Multipart;

/** Bounds applied by {@see MultipartParser} to one multipart/form-data body. */
final class MultipartLimits
{
    /**
     * @param int $maxParts          most parts (fields and files together) one body may hold
     * @param int $maxFileSize       bytes; a larger file is discarded and reported as UPLOAD_ERR_INI_SIZE
     * @param int $maxFieldSize      bytes; a larger (non-file) field rejects the body with 413
     * @param int $maxPartHeaderSize bytes of one part's header section; more rejects the body with 400
     * @param int $maxFiles          files one body may upload (PHP's max_file_uploads); later file
     *                               parts are skipped as PHP skips them, the rest of the body is parsed
     */
    public function __construct(
        public readonly int $maxParts = 1000,
        public readonly int $maxFileSize = 64 * 1024 * 1024,
        public readonly int $maxFieldSize = 1024 * 1024,
        public readonly int $maxPartHeaderSize = 8 * 1024,
        public readonly int $maxFiles = 20,
    ) {
        foreach (['maxParts' => $maxParts, 'maxFileSize' => $maxFileSize, 'maxFieldSize' => $maxFieldSize, 'maxPartHeaderSize' => $maxPartHeaderSize, 'maxFiles' => $maxFiles] as $limit => $v) {
            if ($v < 0) {
                throw new \InvalidArgumentException(\sprintf('%s must not be negative, got %d', $limit, $v));
            }
        }
    }
}
