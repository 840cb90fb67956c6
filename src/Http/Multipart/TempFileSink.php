<?php

declare(strict_types=1);

namespace Spindle\Http\Multipart;

/** Uploaded files as temporary files in one directory, as PHP's own upload handling keeps them. */
final class TempFileSink implements UploadSink
{
    /** @var array<string, resource> open files by path */
    private array $handles = [];

    public function __construct(private readonly string $directory)
    {
    }

    public function open(): ?string
    {
        $path = @\tempnam($this->directory, 'spindle-upload-');
        if ($path === false) {
            return null;
        }
        $handle = @\fopen($path, 'wb');
        if ($handle === false) {
            @\unlink($path);

            return null;
        }
        $this->handles[$path] = $handle;

        return $path;
    }

    public function write(string $path, string $bytes): bool
    {
        $handle = $this->handles[$path] ?? null;

        return $handle !== null && @\fwrite($handle, $bytes) === \strlen($bytes);
    }

    public function close(string $path): bool
    {
        $handle = $this->handles[$path] ?? null;
        unset($this->handles[$path]);

        return $handle !== null && @\fclose($handle);
    }

    public function discard(string $path): void
    {
        $handle = $this->handles[$path] ?? null;
        if ($handle !== null) {
            unset($this->handles[$path]);
            @\fclose($handle);
        }
        if (\is_file($path)) {
            @\unlink($path);
        }
    }
}
