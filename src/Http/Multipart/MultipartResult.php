<?php

declare(strict_types=1);

namespace Spindle\Http\Multipart;

use Spindle\Http\UploadedFile;

/**
 * A parsed multipart/form-data body. Both arrays are nested by field name exactly as PHP
 * nests form names ({@see \Spindle\Http\FormNames}); files keep that same shape with
 * {@see UploadedFile} leaves instead of PHP's transposed $_FILES layout.
 */
final class MultipartResult
{
    /**
     * @param array<array-key, mixed> $fields string leaves
     * @param array<array-key, mixed> $files  UploadedFile leaves
     */
    public function __construct(
        public readonly array $fields = [],
        public readonly array $files = [],
    ) {
    }
}
