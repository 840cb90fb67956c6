<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * Reports changed source files for `--watch` (development reloads).
 *
 * With inotifywait (Debian package inotify-tools) on the PATH, it runs
 *   inotifywait -m -r -e close_write,moved_to,create,delete --format '%w%f' --exclude … PATHS
 * as a child process and reads the changed paths from its stdout: add stream() to the master's
 * stream_select() read set. Without -q, inotifywait says on stderr when its watches are set up;
 * the constructor waits for that (at most $setupTimeout seconds), so a change made right after
 * construction is seen. When inotifywait is missing, fails to start (for example when
 * fs.inotify.max_user_watches is exhausted) or exits later, the watcher polls instead: it keeps
 * the mtime, size and inode of every watched file and rescans at most every $pollInterval
 * seconds. PHP's mtime has whole seconds, so files modified in the last two seconds are also
 * hashed, and a rewrite within the same second is still seen.
 *
 * Watched: files whose extension is in $extensions (".env" has the extension "env"), below
 * the given directories, skipping directories whose name starts with a dot or is "vendor"
 * (below a root; a root itself is always watched). A path given as a file is watched whatever
 * its extension. Deleted and newly created files count as changes.
 *
 * Call changed() on every turn of the master's loop, not only when stream() is readable: it
 * reports changes only once none arrived for $debounce seconds, so that saving several files
 * gives one reload. stream() may turn null after changed() (the watcher fell back to polling).
 *
 * The child process belongs to the process that created the watcher: close() (or the
 * destructor) in a forked worker only closes the inherited pipes.
 */
final class FileWatcher
{
    public const MODE_INOTIFY = 'inotify';
    public const MODE_POLLING = 'polling';
    private const EVENTS = 'close_write,moved_to,create,delete';
    private const ESTABLISHED = 'Watches established';
    /** Files modified this recently are hashed when polling: mtime has one-second steps. */
    private const RACY_SECONDS = 2;

    /** @var list<string> real paths */
    private array $roots = [];
    /** @var array<string, true> lower-case extensions */
    private array $extensions = [];
    private string $mode = self::MODE_POLLING;
    private ?string $fallbackReason = null;
    /** @var resource|null */
    private mixed $process = null;
    /** @var resource|null */
    private mixed $events = null;
    /** @var resource|null */
    private mixed $errors = null;
    private string $partialLine = '';
    private string $errorOutput = '';
    /** @var array<string, array{0: int, 1: int, 2: int, 3: ?string}> path => mtime, size, inode, hash (recently modified files only) */
    private array $snapshot = [];
    private float $lastScan = 0.0;
    /** @var array<string, true> changes not reported yet */
    private array $pending = [];
    private float $lastChange = 0.0;
    private readonly int $ownerPid;

    /**
     * @param list<string> $paths directories (or single files) to watch
     * @param list<string> $extensions without the dot
     * @param ?string $inotifywait the inotifywait binary (a name looked up on the PATH, or a path); null always polls
     */
    public function __construct(
        array $paths,
        array $extensions = ['php', 'env'],
        private readonly float $pollInterval = 0.5,
        ?string $inotifywait = 'inotifywait',
        private readonly float $debounce = 0.2,
        float $setupTimeout = 10.0,
    ) {
        foreach ($paths as $path) {
            $real = \realpath($path);
            if ($real === false) {
                throw new \InvalidArgumentException(\sprintf('Cannot watch %s: no such file or directory', $path));
            }
            if (!\in_array($real, $this->roots, true)) {
                $this->roots[] = $real;
            }
        }
        if ($this->roots === []) {
            throw new \InvalidArgumentException('Nothing to watch: no paths given');
        }
        foreach ($extensions as $extension) {
            $this->extensions[\strtolower(\ltrim($extension, '.'))] = true;
        }
        $this->ownerPid = \posix_getpid();

        if ($inotifywait === null) {
            $this->fallbackReason = 'polling was asked for';
        } else {
            $binary = self::findExecutable($inotifywait);
            if ($binary === null) {
                $this->fallbackReason = \sprintf('%s was not found (install inotify-tools)', $inotifywait);
            } else {
                $this->startInotify($binary, $setupTimeout);
            }
        }
        if ($this->mode === self::MODE_POLLING) {
            $this->snapshot = $this->scan(\microtime(true), []);
            $this->lastScan = \microtime(true);
        }
    }

    public function __destruct()
    {
        $this->close();
    }

    /** 'inotify' or 'polling' (self::MODE_*). */
    public function mode(): string
    {
        return $this->mode;
    }

    /** Why the watcher polls instead of using inotify; null in inotify mode. */
    public function fallbackReason(): ?string
    {
        return $this->fallbackReason;
    }

    /**
     * inotifywait's output, for the master's stream_select() read set; null when polling.
     *
     * @return resource|null
     */
    public function stream(): mixed
    {
        return $this->events;
    }

    /**
     * The files changed since the last report, sorted, once no change arrived for the debounce
     * time; otherwise an empty list. Never blocks.
     *
     * @return list<string>
     */
    public function changed(): array
    {
        $now = \microtime(true);
        if ($this->mode === self::MODE_INOTIFY) {
            $this->readEvents($now);
        }
        if ($this->mode === self::MODE_POLLING && $now - $this->lastScan >= $this->pollInterval) {
            $snapshot = $this->scan($now, $this->snapshot);
            foreach ($snapshot + $this->snapshot as $path => $unused) {
                if (self::differs($this->snapshot[$path] ?? null, $snapshot[$path] ?? null)) {
                    $this->pending[$path] = true;
                    $this->lastChange = $now;
                }
            }
            // Hashes are kept for recently modified files only; record() compared the others once more.
            foreach ($snapshot as $path => $entry) {
                if ($entry[3] !== null && $entry[0] + self::RACY_SECONDS <= $now) {
                    $snapshot[$path][3] = null;
                }
            }
            $this->snapshot = $snapshot;
            $this->lastScan = $now;
        }
        if ($this->pending === [] || $now - $this->lastChange < $this->debounce) {
            return [];
        }
        $changed = \array_map('strval', \array_keys($this->pending));
        \sort($changed);
        $this->pending = [];

        return $changed;
    }

    /** Stops inotifywait (when this process started it) and closes its pipes. */
    public function close(): void
    {
        if ($this->process === null) {
            return;
        }
        $process = $this->process;
        $this->process = null;
        if (\posix_getpid() === $this->ownerPid) {
            \proc_terminate($process);
        }
        foreach ([$this->events, $this->errors] as $pipe) {
            if (\is_resource($pipe)) {
                \fclose($pipe);
            }
        }
        $this->events = $this->errors = null;
        if (\posix_getpid() === $this->ownerPid) {
            \proc_close($process);
        }
    }

    private function startInotify(string $binary, float $setupTimeout): void
    {
        $command = [$binary, '-m', '-r', '-e', self::EVENTS, '--format', '%w%f'];
        $exclude = $this->excludePattern();
        if ($exclude !== null) {
            \array_push($command, '--exclude', $exclude);
        }
        $process = @\proc_open([...$command, ...$this->roots], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if ($process === false) {
            $this->fallbackReason = \sprintf('%s could not be started', $binary);

            return;
        }
        $this->process = $process;
        $this->events = $pipes[1];
        $this->errors = $pipes[2];
        \stream_set_blocking($pipes[1], false);
        \stream_set_blocking($pipes[2], false);
        $this->mode = self::MODE_INOTIFY;

        $deadline = \microtime(true) + $setupTimeout;
        while (!\str_contains($this->errorOutput, self::ESTABLISHED)) {
            $left = $deadline - \microtime(true);
            if ($left <= 0) {
                // Still setting up watches on a large tree: events start once it is done.
                return;
            }
            $read = [$pipes[2]];
            $write = $except = null;
            $seconds = (int) $left;
            if (@\stream_select($read, $write, $except, $seconds, (int) (($left - $seconds) * 1_000_000)) > 0
                && !$this->readErrors()) {
                $this->fallBackToPolling();

                return;
            }
        }
    }

    /**
     * Reads what inotifywait wrote to stderr.
     *
     * @return bool false once inotifywait closed it (it exited)
     */
    private function readErrors(): bool
    {
        if (!\is_resource($this->errors)) {
            return false;
        }
        while (\is_string($data = @\fread($this->errors, 8192)) && $data !== '') {
            // Only the start matters (the setup message, an error); bounded in size.
            if (\strlen($this->errorOutput) < 8192) {
                $this->errorOutput .= $data;
            }
        }

        return !\feof($this->errors);
    }

    private function readEvents(float $now): void
    {
        if (!\is_resource($this->events)) {
            return;
        }
        while (\is_string($data = @\fread($this->events, 65536)) && $data !== '') {
            $this->partialLine .= $data;
        }
        $lines = \explode("\n", $this->partialLine);
        $this->partialLine = (string) \array_pop($lines);
        foreach ($lines as $path) {
            if ($path !== '' && $this->isWatched($path)) {
                $this->pending[$path] = true;
                $this->lastChange = $now;
            }
        }
        $this->readErrors();
        if (\feof($this->events)) {
            $this->fallBackToPolling();
        }
    }

    private function fallBackToPolling(): void
    {
        $this->readErrors();
        $output = \trim(\str_replace(["Setting up watches.  Beware: since -r was given, this may take a while!", self::ESTABLISHED . '.'], '', $this->errorOutput));
        $this->fallbackReason = 'inotifywait exited' . ($output !== '' ? ': ' . \preg_replace('/\s+/', ' ', $output) : '');
        $this->close();
        $this->mode = self::MODE_POLLING;
        $this->snapshot = $this->scan(\microtime(true), []);
        $this->lastScan = \microtime(true);
    }

    /**
     * Keeps inotifywait from watching dot-directories and vendor directories below the roots
     * (its --exclude is a POSIX extended regular expression matched against paths; directory
     * paths end with a slash, so files such as .env stay watched).
     */
    private function excludePattern(): ?string
    {
        $roots = [];
        foreach ($this->roots as $root) {
            if (\is_dir($root)) {
                $roots[] = \preg_replace('/[.\[\]()*+?{}|^$\\\\]/', '\\\\$0', \rtrim($root, '/'));
            }
        }

        return $roots === [] ? null : '^(' . \implode('|', $roots) . ')/(.*/)?(\.[^/]*|vendor)/';
    }

    private function isWatched(string $path): bool
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

    private function hasWatchedExtension(string $path): bool
    {
        return isset($this->extensions[\strtolower(\pathinfo($path, \PATHINFO_EXTENSION))]);
    }

    private static function isIgnoredDirectory(string $name): bool
    {
        return $name === 'vendor' || \str_starts_with($name, '.');
    }

    /**
     * @param array<string, array{0: int, 1: int, 2: int, 3: ?string}> $previous
     *
     * @return array<string, array{0: int, 1: int, 2: int, 3: ?string}>
     */
    private function scan(float $now, array $previous): array
    {
        $snapshot = [];
        foreach ($this->roots as $root) {
            if (\is_dir($root)) {
                $this->scanDirectory($root, $now, $previous, $snapshot);
            } else {
                $this->record($root, $now, $previous, $snapshot);
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
                if (!self::isIgnoredDirectory($entry) && !\is_link($path)) {
                    $this->scanDirectory($path, $now, $previous, $snapshot);
                }
            } elseif ($this->hasWatchedExtension($path)) {
                $this->record($path, $now, $previous, $snapshot);
            }
        }
    }

    /**
     * @param array<string, array{0: int, 1: int, 2: int, 3: ?string}> $previous
     * @param array<string, array{0: int, 1: int, 2: int, 3: ?string}> $snapshot
     */
    private function record(string $path, float $now, array $previous, array &$snapshot): void
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

    private static function findExecutable(string $name): ?string
    {
        if (\str_contains($name, '/')) {
            return \is_file($name) && \is_executable($name) ? $name : null;
        }
        foreach (\explode(':', (string) \getenv('PATH')) as $directory) {
            $candidate = ($directory === '' ? '.' : \rtrim($directory, '/')) . '/' . $name;
            if (\is_file($candidate) && \is_executable($candidate)) {
                return $candidate;
            }
        }

        return null;
    }
}
