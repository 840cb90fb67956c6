<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Spindle\Supervisor\Watch\InotifyWatch;
use Spindle\Supervisor\Watch\PollingWatch;
use Spindle\Supervisor\Watch\WatchedPaths;

/**
 * Reports changed source files for `--watch` (development reloads).
 *
 * With inotifywait on the PATH it reads the changes inotifywait reports (Watch\InotifyWatch): add
 * stream() to the master's stream_select() read set. When inotifywait is missing, fails to start
 * (for example when fs.inotify.max_user_watches is exhausted) or exits later, the watcher polls
 * instead (Watch\PollingWatch), rescanning at most every $pollInterval seconds.
 *
 * Watched: files whose extension is in $extensions (".env" has the extension "env"), below the
 * given directories, skipping directories whose name starts with a dot or is "vendor" (below a
 * root; a root itself is always watched). A path given as a file is watched whatever its
 * extension. Deleted and newly created files count as changes.
 *
 * Call changed() on every turn of the master's loop, not only when stream() is readable: it
 * reports changes only once none arrived for $debounce seconds, so that saving several files
 * gives one reload. stream() may turn null after changed() (the watcher fell back to polling).
 */
final class FileWatcher
{
    public const MODE_INOTIFY = 'inotify';
    public const MODE_POLLING = 'polling';

    private readonly WatchedPaths $paths;
    private ?InotifyWatch $inotify = null;
    private ?PollingWatch $polling = null;
    private ?string $fallbackReason = null;
    private float $lastScan = 0.0;
    /** @var array<string, true> changes not reported yet */
    private array $pending = [];
    private float $lastChange = 0.0;

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
        $this->paths = new WatchedPaths($paths, $extensions);
        if ($inotifywait === null) {
            $this->fallBackToPolling('polling was asked for');

            return;
        }
        $binary = self::findExecutable($inotifywait);
        if ($binary === null) {
            $this->fallBackToPolling(\sprintf('%s was not found (install inotify-tools)', $inotifywait));

            return;
        }
        $started = InotifyWatch::start($binary, $this->paths, $setupTimeout);
        if (\is_string($started)) {
            $this->fallBackToPolling($started);
        } else {
            $this->inotify = $started;
        }
    }

    public function __destruct()
    {
        $this->close();
    }

    /** 'inotify' or 'polling' (self::MODE_*). */
    public function mode(): string
    {
        return $this->inotify !== null ? self::MODE_INOTIFY : self::MODE_POLLING;
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
        return $this->inotify?->stream();
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
        if ($this->inotify !== null) {
            $changes = $this->inotify->read();
            if ($changes === null) {
                $reason = $this->inotify->exitReason();
                $this->close();
                $this->fallBackToPolling($reason);
                $changes = [];
            }
            $this->note($changes, $now);
        }
        if ($this->polling !== null && $now - $this->lastScan >= $this->pollInterval) {
            $this->note($this->polling->scanForChanges($now), $now);
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
        $this->inotify?->close();
        $this->inotify = null;
    }

    /** @param list<string> $paths */
    private function note(array $paths, float $now): void
    {
        foreach ($paths as $path) {
            $this->pending[$path] = true;
            $this->lastChange = $now;
        }
    }

    private function fallBackToPolling(string $reason): void
    {
        $this->fallbackReason = $reason;
        $this->polling = new PollingWatch($this->paths);
        $this->lastScan = \microtime(true);
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
