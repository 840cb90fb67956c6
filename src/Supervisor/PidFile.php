<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * The master's pid file, and the control socket path derived from it. The file holds the pid
 * and a newline. Write it from the process that stays (after Daemon::detach(): the pid
 * changes there).
 *
 * Without --pid-file both live in a RuntimeDirectory, private to the server's user. A file is
 * never opened through a symlink: the pid file is written to a temporary file with a random
 * name created exclusively (O_EXCL: an existing name, symlinks included, fails) next to it,
 * then renamed over the pid file (rename() replaces a symlink, it does not follow it), and it is
 * read only when lstat() shows a regular file.
 */
final class PidFile
{
    private const EPERM = 1;
    private const S_IFMT = 0170000;
    private const S_IFREG = 0100000;

    /**
     * Writes $pid atomically. Refuses when another Spindle master still uses this pid file: its
     * control socket answers, or the pid names a live process that runs `spindle serve`. A file
     * naming anything else (a dead pid, pid 1, some other program) is stale and replaced.
     */
    public static function write(string $path, int $pid): void
    {
        if ($pid <= 0) {
            throw new \InvalidArgumentException(\sprintf('Invalid pid %d', $pid));
        }
        $current = self::read($path);
        $ours = $current === null || $current === $pid || $current === \posix_getpid();
        $socket = self::socketPath($path);
        if (self::socketAnswers($socket)) {
            throw new ControlError(!$ours && self::isRunning($current)
                ? \sprintf('Spindle is already running with pid %d (pid file %s)', $current, $path)
                : \sprintf('Another Spindle master is running at %s (pid file %s)', $socket, $path));
        }
        if (!$ours && self::isRunning($current) && self::isSpindleServer($current)) {
            throw new ControlError(\sprintf('Spindle is already running with pid %d (pid file %s)', $current, $path));
        }
        $handle = false;
        $temporary = '';
        $umask = \umask(0022);
        try {
            // Random names: nobody can plant a file or symlink at the name ahead of time.
            for ($attempt = 0; $attempt < 3 && $handle === false; ++$attempt) {
                $temporary = \sprintf('%s/.%s.%s.tmp', \dirname($path), \basename($path), \bin2hex(\random_bytes(8)));
                \error_clear_last();
                $handle = @\fopen($temporary, 'xb');
            }
        } finally {
            \umask($umask);
        }
        if ($handle === false) {
            throw new ControlError(\sprintf('Cannot write the pid file %s: %s', $path, self::lastError()));
        }
        $data = $pid . "\n";
        $written = @\fwrite($handle, $data);
        \fclose($handle);
        \error_clear_last();
        if ($written !== \strlen($data) || !@\rename($temporary, $path)) {
            $error = $written !== \strlen($data) ? 'short write' : self::lastError();
            @\unlink($temporary);
            throw new ControlError(\sprintf('Cannot write the pid file %s: %s', $path, $error));
        }
    }

    /** The pid in the file; null when there is no regular file there or it does not hold a pid. */
    public static function read(string $path): ?int
    {
        \clearstatcache(true, $path);
        $before = @\lstat($path);
        if ($before === false || ($before['mode'] & self::S_IFMT) !== self::S_IFREG) {
            return null;
        }
        $handle = @\fopen($path, 'rb');
        if ($handle === false) {
            return null;
        }
        $opened = \fstat($handle);
        $contents = @\fread($handle, 64);
        \fclose($handle);
        // Replaced between lstat() and fopen() (by a symlink, say): not the file that was checked.
        if ($opened === false || $opened['ino'] !== $before['ino'] || $opened['dev'] !== $before['dev']) {
            return null;
        }
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
    public static function isRunning(?int $pid): bool
    {
        if ($pid === null || $pid <= 0) {
            return false;
        }

        return \posix_kill($pid, 0) || \posix_get_last_error() === self::EPERM;
    }

    /**
     * Whether process $pid runs `spindle serve` (a master, or one of its workers, forked from it):
     * its command line has an argument naming a `spindle` program and, after it, `serve`.
     * Where /proc is missing every live process counts, as the safe answer.
     */
    public static function isSpindleServer(int $pid): bool
    {
        if (!\is_dir('/proc/self')) {
            return self::isRunning($pid);
        }
        $cmdline = @\file_get_contents('/proc/' . $pid . '/cmdline');
        if (!\is_string($cmdline) || $cmdline === '') {
            return false;
        }
        $program = false;
        foreach (\explode("\0", $cmdline) as $argument) {
            if ($program && $argument === 'serve') {
                return true;
            }
            $program = $program || \str_contains(\basename($argument), 'spindle');
        }

        return false;
    }

    /** The control socket that goes with a pid file: "x.pid" → "x.sock", anything else + ".sock". */
    public static function socketPath(string $pidFile): string
    {
        return (\str_ends_with($pidFile, '.pid') ? \substr($pidFile, 0, -4) : $pidFile) . '.sock';
    }

    /**
     * The pid file of a server on $port when none is given, in the RuntimeDirectory, which is
     * created when missing (the server calls this).
     */
    public static function defaultPath(int $port): string
    {
        return RuntimeDirectory::forServer() . "/{$port}.pid";
    }

    /**
     * The pid file a client looks for when none is given: the first runtime directory whose
     * control socket for $port exists, else the preferred one. Creates nothing.
     */
    public static function find(int $port): string
    {
        $candidates = RuntimeDirectory::candidates();
        foreach ($candidates as $directory) {
            \clearstatcache(true, "{$directory}/{$port}.sock");
            if (@\lstat("{$directory}/{$port}.sock") !== false) {
                return "{$directory}/{$port}.pid";
            }
        }

        return "{$candidates[0]}/{$port}.pid";
    }

    /** Whether something accepts connections on the unix socket at $path. */
    private static function socketAnswers(string $path): bool
    {
        \clearstatcache(true, $path);
        if (@\filetype($path) !== 'socket') {
            return false;
        }
        $probe = @\stream_socket_client('unix://' . $path, $errno, $error, 1.0);
        if ($probe === false) {
            return false;
        }
        \fclose($probe);

        return true;
    }

    private static function lastError(): string
    {
        $error = \error_get_last();

        return $error !== null ? $error['message'] : 'unknown error';
    }
}
