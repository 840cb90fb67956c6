<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * The master's pid file, and the control socket path derived from it. The file holds the pid
 * and a newline. Write it from the process that stays (after Daemon::detach(): the pid
 * changes there).
 */
final class PidFile
{
    private const EPERM = 1;

    /**
     * Writes $pid atomically (a temporary file renamed over $path). Refuses when the file names
     * another live process: a second server must not take over the first one's pid file.
     */
    public static function write(string $path, int $pid): void
    {
        if ($pid <= 0) {
            throw new \InvalidArgumentException(\sprintf('Invalid pid %d', $pid));
        }
        $current = self::read($path);
        if ($current !== null && $current !== $pid && $current !== \posix_getpid() && self::isRunning($current)) {
            throw new ControlError(\sprintf('Spindle is already running with pid %d (pid file %s)', $current, $path));
        }
        $temporary = \sprintf('%s/.%s.%d.tmp', \dirname($path), \basename($path), \posix_getpid());
        \error_clear_last();
        if (@\file_put_contents($temporary, $pid . "\n") === false) {
            throw new ControlError(\sprintf('Cannot write the pid file %s: %s', $path, self::lastError()));
        }
        @\chmod($temporary, 0644);
        \error_clear_last();
        if (!@\rename($temporary, $path)) {
            $error = self::lastError();
            @\unlink($temporary);
            throw new ControlError(\sprintf('Cannot write the pid file %s: %s', $path, $error));
        }
    }

    /** The pid in the file; null when there is no file or it does not hold a pid. */
    public static function read(string $path): ?int
    {
        \clearstatcache(true, $path);
        if (!\is_file($path)) {
            return null;
        }
        $contents = @\file_get_contents($path, false, null, 0, 64);
        if (!\is_string($contents) || \preg_match('/^\s*([1-9]\d{0,9})\s*$/D', $contents, $match) !== 1) {
            return null;
        }

        return (int) $match[1];
    }

    /**
     * Removes the file if it still names $pid (a newer server may have replaced it).
     *
     * @return bool whether the file was removed
     */
    public static function remove(string $path, int $pid): bool
    {
        return self::read($path) === $pid && @\unlink($path);
    }

    /** Whether a process with this pid exists (also when it belongs to another user). */
    public static function isRunning(int $pid): bool
    {
        if ($pid <= 0) {
            return false;
        }

        return \posix_kill($pid, 0) || \posix_get_last_error() === self::EPERM;
    }

    /** The control socket that goes with a pid file: "x.pid" → "x.sock", anything else + ".sock". */
    public static function socketPath(string $pidFile): string
    {
        return (\str_ends_with($pidFile, '.pid') ? \substr($pidFile, 0, -4) : $pidFile) . '.sock';
    }

    /** The pid file of a server on $port when none is given. */
    public static function defaultPath(int $port): string
    {
        return \rtrim(\sys_get_temp_dir(), '/') . "/spindle-{$port}.pid";
    }

    private static function lastError(): string
    {
        $error = \error_get_last();

        return $error !== null ? $error['message'] : 'unknown error';
    }
}
