<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Watch;

/**
 * @internal Finds changed files by scanning: it keeps the mtime, size and inode of every watched
 * file and compares at each scan. PHP's mtime has whole seconds, so files modified in the last two
 * seconds are also hashed, and a rewrite within the same second is still seen. Deleted and newly
 * created files count as changes.
 */
final class PollingWatch
{
    /** Files modified this recently are hashed: mtime has one-second steps. */
    private const RACY_SECONDS = 2;

    /** @var array<string, array{0: int, 1: int, 2: int, 3: ?string}> path => mtime, size, inode, hash (recently modified files only) */
    private array $snapshot;

    public function __construct(private readonly WatchedPaths $paths)
    {
        $this->snapshot = $this->scan(\microtime(true), []);
    }

    /**
     * The files that changed since the last scan.
     *
     * @return list<string>
     */
    public function scanForChanges(float $now): array
    {
        $snapshot = $this->scan($now, $this->snapshot);
        $changed = [];
        foreach ($snapshot + $this->snapshot as $path => $unused) {
            if (self::differs($this->snapshot[$path] ?? null, $snapshot[$path] ?? null)) {
                $changed[] = (string) $path;
            }
        }
        // Hashes are kept for recently modified files only; record() compared the others once more.
        foreach ($snapshot as $path => $entry) {
            if ($entry[3] !== null && $entry[0] + self::RACY_SECONDS <= $now) {
                $snapshot[$path][3] = null;
            }
        }
        $this->snapshot = $snapshot;

        return $changed;
    }

    /**
     * @param array<string, array{0: int, 1: int, 2: int, 3: ?string}> $previous
     *
     * @return array<string, array{0: int, 1: int, 2: int, 3: ?string}>
     */
    private function scan(float $now, array $previous): array
    {
        $snapshot = [];
        foreach ($this->paths->roots as $root) {
            if (\is_dir($root)) {
                $this->scanDirectory($root, $now, $previous, $snapshot);
            } else {
                self::record($root, $now, $previous, $snapshot);
            }
        }

        return $snapshot;
    }

    /**
     * @param array<string, array{0: int, 1: int, 2: int, 3: ?string}> $previous
     * @param array<string, array{0: int, 1: int, 2: int, 3: ?string}> $snapshot
     */
    private function scanDirectory(string $directory, float $now, array $previous, array &$snapshot): void
    {
        $entries = @\scandir($directory);
        if ($entries === false) {
            return;
        }
        foreach ($entries as $entry) {
            if ($entry === '.' || $entry === '..') {
                continue;
            }
            $path = \rtrim($directory, '/') . '/' . $entry;
            if (\is_dir($path)) {
                // Symbolic links to directories are not followed: they may form cycles.
                if (!WatchedPaths::isIgnoredDirectory($entry) && !\is_link($path)) {
                    $this->scanDirectory($path, $now, $previous, $snapshot);
                }
            } elseif ($this->paths->hasWatchedExtension($path)) {
                self::record($path, $now, $previous, $snapshot);
            }
        }
    }

    /**
     * @param array<string, array{0: int, 1: int, 2: int, 3: ?string}> $previous
     * @param array<string, array{0: int, 1: int, 2: int, 3: ?string}> $snapshot
     */
    private static function record(string $path, float $now, array $previous, array &$snapshot): void
    {
        $stat = @\stat($path);
        if ($stat === false) {
            return;
        }
        $hash = null;
        $racy = $stat['mtime'] + self::RACY_SECONDS > $now;
        if ($racy || ($previous[$path][3] ?? null) !== null) {
            $hash = @\hash_file('xxh128', $path);
            $hash = \is_string($hash) ? $hash : null;
        }
        $snapshot[$path] = [$stat['mtime'], $stat['size'], $stat['ino'], $hash];
    }

    /**
     * @param array{0: int, 1: int, 2: int, 3: ?string}|null $before
     * @param array{0: int, 1: int, 2: int, 3: ?string}|null $after
     */
    private static function differs(?array $before, ?array $after): bool
    {
        if ($before === null || $after === null) {
            return $before !== $after;
        }
        if ([$before[0], $before[1], $before[2]] !== [$after[0], $after[1], $after[2]]) {
            return true;
        }

        return $before[3] !== null && $after[3] !== null && $before[3] !== $after[3];
    }
}
