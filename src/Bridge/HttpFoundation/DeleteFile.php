<?php

declare(strict_types=1);

namespace Spindle\Bridge\HttpFoundation;

/**
 * @internal Removes a file when it is destroyed: kept alongside a FileBody for
 * BinaryFileResponse::deleteFileAfterSend(), it goes when Spindle is done with the body
 * (sent, or abandoned because the client left).
 */
final class DeleteFile
{
    public function __construct(private readonly string $path)
    {
    }

    public function __destruct()
    {
        if (\is_file($this->path)) {
            @\unlink($this->path);
        }
    }
}
