<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * A directory of its own for each worker's temporary files (uploads), inside --upload-dir or the
 * system's temporary directory, which the master empties and removes once the worker is gone: the
 * files of a worker that was killed, crashed or ended mid-upload do not pile up.
 *
 * Each directory gets an unpredictable name and is made with mkdir (mode 0700), which fails on
 * anything already there, a planted symbolic link included; nothing is ever created at a name
 * someone else chose. Sweeping removes only the regular files and symbolic links directly inside
 * (without following them), then the directory.
 */
final class WorkerTempDirs
{
    private const PREFIX = 'spindle-worker-';
    private const ATTEMPTS = 5;

    public function __construct(private readonly string $parent)
    {
    }

    /** Makes a new private directory; null when it cannot (the worker then uses $parent itself). */
    public function create(): ?string
    {
        for ($i = 0; $i < self::ATTEMPTS; ++$i) {
            $path = \rtrim($this->parent, '/') . '/' . self::PREFIX . \bin2hex(\random_bytes(8));
            if (@\mkdir($path, 0700)) {
                return $path;
            }
        }

        return null;
    }

    /** Removes $directory (made by create()) and what is in it; returns how many files it held. */
    public function sweep(string $directory): int
    {
        if (!\str_starts_with(\basename($directory), self::PREFIX) || \is_link($directory) || !\is_dir($directory)) {
            return 0;
        }
        $removed = 0;
        foreach (@\scandir($directory) ?: [] as $name) {
            if ($name === '.' || $name === '..') {
                continue;
            }
            $path = $directory . '/' . $name;
            if ((\is_link($path) || \is_file($path)) && @\unlink($path)) {
                ++$removed;
            }
        }
        @\rmdir($directory);

        return $removed;
    }
}
