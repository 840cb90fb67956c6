<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Illuminate\Http\UploadedFile;
use Symfony\Component\HttpFoundation\File\UploadedFile as SymfonyUploadedFile;
use Symfony\Component\HttpFoundation\Request;

/**
 * Makes a request's uploaded files Laravel's own UploadedFile, in test mode. Laravel turns
 * Symfony's into its own with createFromBase(), which drops test mode: isValid() and move()
 * would then ask is_uploaded_file(), which is false for the files Spindle wrote itself.
 */
final class UploadedFiles
{
    public static function convert(Request $request): void
    {
        $files = $request->files->all();
        if ($files !== []) {
            $request->files->replace(self::map($files));
        }
    }

    /**
     * @param array<mixed> $files
     *
     * @return array<mixed>
     */
    private static function map(array $files): array
    {
        foreach ($files as $key => $file) {
            if (\is_array($file)) {
                $files[$key] = self::map($file);
            } elseif ($file instanceof SymfonyUploadedFile && !$file instanceof UploadedFile) {
                $files[$key] = new UploadedFile($file->getPathname(), $file->getClientOriginalName(), $file->getClientMimeType(), $file->getError(), true);
            }
        }

        return $files;
    }
}
