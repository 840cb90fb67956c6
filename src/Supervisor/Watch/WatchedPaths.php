<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Watch;

/**
 * @internal What `--watch` looks at: files with one of the extensions below the roots, skipping
 * directories whose name starts with a dot or is "vendor" (below a root; a root itself is always
 * watched). A root given as a file is watched whatever its extension.
 */
final class WatchedPaths
{
    /** @var list<string> real paths */
    public readonly array $roots;
    /** @var array<string, true> lower-case extensions */
    private readonly array $extensions;

    /**
     * @param list<string> $paths
     * @param list<string> $extensions without the dot
     */
    public function __construct(array $paths, array $extensions)
    {
        $roots = [];
        foreach ($paths as $path) {
            $real = \realpath($path);
            if ($real === false) {
                throw new \InvalidArgumentException(\sprintf('Cannot watch %s: no such file or directory', $path));
            }
            if (!\in_array($real, $roots, true)) {
                $roots[] = $real;
            }
        }
        if ($roots === []) {
            throw new \InvalidArgumentException('Nothing to watch: no paths given');
        }
        $this->roots = $roots;
        $lower = [];
        foreach ($extensions as $extension) {
            $lower[\strtolower(\ltrim($extension, '.'))] = true;
        }
        $this->extensions = $lower;
    }

    public function isWatched(string $path): bool
    {
        foreach ($this->roots as $root) {
            if ($path === $root) {
                return true;
            }
            $prefix = \rtrim($root, '/') . '/';
            if (\str_starts_with($path, $prefix)) {
                $directories = \explode('/', \substr($path, \strlen($prefix)));
                \array_pop($directories);
                foreach ($directories as $directory) {
                    if (self::isIgnoredDirectory($directory)) {
                        return false;
                    }
                }

                return $this->hasWatchedExtension($path);
            }
        }

        return false;
    }

    public function hasWatchedExtension(string $path): bool
    {
        return isset($this->extensions[\strtolower(\pathinfo($path, \PATHINFO_EXTENSION))]);
    }

    public static function isIgnoredDirectory(string $name): bool
    {
        return $name === 'vendor' || \str_starts_with($name, '.');
    }

    /**
     * The ignored directories below the roots as inotifywait's --exclude, a POSIX extended
     * regular expression matched against paths (directory paths end with a slash, so files such
     * as .env stay watched); null when no root is a directory.
     */
    public function excludePattern(): ?string
    {
        $roots = [];
        foreach ($this->roots as $root) {
            if (\is_dir($root)) {
                $roots[] = \preg_replace('/[.\[\]()*+?{}|^$\\\\]/', '\\\\$0', \rtrim($root, '/'));
            }
        }

        return $roots === [] ? null : '^(' . \implode('|', $roots) . ')/(.*/)?(\.[^/]*|vendor)/';
    }
}
