<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Watch;

/**
 * @internal inotifywait (Debian package inotify-tools) as a child process:
 *   inotifywait -m -r -e close_write,moved_to,create,delete --format '%w%f' --exclude … PATHS
 * Changed paths come on its stdout. Without -q it says on stderr when its watches are set up;
 * start() waits for that (at most $setupTimeout seconds), so a change made right after is seen.
 *
 * The child process belongs to the process that started it: close() in a forked worker only
 * closes the inherited pipes.
 */
final class InotifyWatch
{
    private const EVENTS = 'close_write,moved_to,create,delete';
    private const ESTABLISHED = 'Watches established';

    private string $partialLine = '';
    private string $errorOutput = '';
    private bool $closed = false;
    private readonly int $ownerPid;

    /**
     * @param resource $process
     * @param resource $events
     * @param resource $errors
     */
    private function __construct(
        private readonly WatchedPaths $paths,
        private readonly mixed $process,
        private readonly mixed $events,
        private readonly mixed $errors,
    ) {
        $this->ownerPid = \posix_getpid();
    }

    /**
     * Starts inotifywait on the roots; a string says why it could not start, or why it exited
     * while setting up its watches.
     */
    public static function start(string $binary, WatchedPaths $paths, float $setupTimeout): self|string
    {
        $command = [$binary, '-m', '-r', '-e', self::EVENTS, '--format', '%w%f'];
        $exclude = $paths->excludePattern();
        if ($exclude !== null) {
            \array_push($command, '--exclude', $exclude);
        }
        $process = @\proc_open([...$command, ...$paths->roots], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if ($process === false) {
            return \sprintf('%s could not be started', $binary);
        }
        \stream_set_blocking($pipes[1], false);
        \stream_set_blocking($pipes[2], false);
        $watch = new self($paths, $process, $pipes[1], $pipes[2]);

        $deadline = \microtime(true) + $setupTimeout;
        while (!\str_contains($watch->errorOutput, self::ESTABLISHED)) {
            $left = $deadline - \microtime(true);
            if ($left <= 0) {
                // Still setting up watches on a large tree: events start once it is done.
                return $watch;
            }
            $read = [$pipes[2]];
            $write = $except = null;
            $seconds = (int) $left;
            if (@\stream_select($read, $write, $except, $seconds, (int) (($left - $seconds) * 1_000_000)) > 0
                && !$watch->readErrors()) {
                $reason = $watch->exitReason();
                $watch->close();

                return $reason;
            }
        }

        return $watch;
    }

    /** @return resource inotifywait's output, for a stream_select() read set */
    public function stream(): mixed
    {
        return $this->events;
    }

    /**
     * The watched paths inotifywait reported since the last call; null once it exited.
     *
     * @return list<string>|null
     */
    public function read(): ?array
    {
        if ($this->closed) {
            return null;
        }
        while (\is_string($data = @\fread($this->events, 65536)) && $data !== '') {
            $this->partialLine .= $data;
        }
        $lines = \explode("\n", $this->partialLine);
        $this->partialLine = (string) \array_pop($lines);
        $changed = [];
        foreach ($lines as $path) {
            if ($path !== '' && $this->paths->isWatched($path)) {
                $changed[] = $path;
            }
        }
        $this->readErrors();

        return \feof($this->events) ? null : $changed;
    }

    /** Why inotifywait stopped, from what it wrote on stderr. */
    public function exitReason(): string
    {
        $this->readErrors();
        $output = \trim(\str_replace(['Setting up watches.  Beware: since -r was given, this may take a while!', self::ESTABLISHED . '.'], '', $this->errorOutput));

        return 'inotifywait exited' . ($output !== '' ? ': ' . \preg_replace('/\s+/', ' ', $output) : '');
    }

    /** Stops inotifywait (when this process started it) and closes its pipes. */
    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        $owner = \posix_getpid() === $this->ownerPid;
        if ($owner) {
            \proc_terminate($this->process);
        }
        foreach ([$this->events, $this->errors] as $pipe) {
            if (\is_resource($pipe)) {
                \fclose($pipe);
            }
        }
        if ($owner) {
            \proc_close($this->process);
        }
    }

    /** @return bool false once inotifywait closed stderr (it exited) */
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
}
