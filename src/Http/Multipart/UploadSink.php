<?php

declare(strict_types=1);

namespace Spindle\Http\Multipart;

/**
 * Where the multipart parser puts uploaded files' contents. A file is named by the path open()
 * returns, the one an UploadedFile carries.
 */
interface UploadSink
{
    /** Starts a file; null when it cannot (the upload gets UPLOAD_ERR_CANT_WRITE). */
    public function open(): ?string;

    /** Appends to the open file $path; false when it could not be written whole. */
    public function write(string $path, string $bytes): bool;

    /** Ends the file $path; false when its contents may not all be stored. */
    public function close(string $path): bool;

    /** Drops the file $path (open or closed) and what it held. */
    public function discard(string $path): void;
}
