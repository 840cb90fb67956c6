<?php

declare(strict_types=1);

namespace Spindle\Server\SharedCache;

/**
 * An exclusive lock taken in turn by a process and the processes forked from it (the shared
 * cache's writers), with no name on disk.
 *
 * It is an flock() on a file that has a name only while create() runs: the file is made (with an
 * unpredictable name, never over anything already there), opened, and unlinked at once, so a
 * master killed with SIGKILL leaves nothing behind; the kernel frees the file when the last
 * process holding it exits. flock() locks belong to an open file, which a forked child shares
 * with its parent, so each process opens the file anew, through the descriptor it inherited
 * (/proc/self/fd/N), the first time it locks. PHP's fopen() cannot do that (it resolves the link
 * to the file's old name, which is gone), so open() and flock() are libc's, through FFI; the file
 * a child opens is checked to be the lock's (device and inode), so a descriptor number reused for
 * something else is an error, never a lock on another file. The descriptors are close-on-exec:
 * a program the server runs does not keep the file.
 */
final class ProcessLock
{
    private const O_RDWR = 2;
    private const O_CLOEXEC = 0x80000;
    private const LOCK_EX = 2;
    private const LOCK_UN = 8;
    private const EINTR = 4;

    private int $pid;

    private function __construct(
        private readonly \FFI $libc,
        /** The descriptor the creating process opened (inherited by its children). */
        private readonly int $inherited,
        /** This process's own open file of the lock. */
        private int $descriptor,
        private readonly int $device,
        private readonly int $inode,
    ) {
        $this->pid = (int) \getmypid();
    }

    /**
     * Makes the lock: its file is made in $directory (the system's temporary directory by default)
     * and gone before this returns.
     *
     * @throws \RuntimeException when FFI, libc or /proc/self/fd is missing, or the file cannot be made
     */
    public static function create(?string $directory = null): self
    {
        $directory ??= \sys_get_temp_dir();
        $libc = self::libc();
        if (!\is_dir('/proc/self/fd')) {
            throw new \RuntimeException('The shared cache\'s lock needs /proc/self/fd, which is missing');
        }
        // tempnam() falls back to the system's directory for one it cannot use: not here.
        $real = \realpath($directory);
        $path = $real === false ? false : @\tempnam($real, 'spindle-cache-');
        if ($path === false || \dirname($path) !== $real) {
            if ($path !== false) {
                @\unlink($path);
            }
            throw new \RuntimeException('Cannot create the shared cache\'s lock file in ' . $directory);
        }
        try {
            $descriptor = (int) $libc->open($path, self::O_RDWR | self::O_CLOEXEC); // @phpstan-ignore method.notFound (a libc function reached through FFI)
        } finally {
            @\unlink($path);
        }
        $stat = $descriptor < 0 ? false : @\stat('/proc/self/fd/' . $descriptor);
        if ($stat === false) {
            throw new \RuntimeException(\sprintf('Cannot open the shared cache\'s lock file %s (errno %d)', $path, self::errno($libc)));
        }

        return new self($libc, $descriptor, $descriptor, (int) $stat['dev'], (int) $stat['ino']);
    }

    /** Waits for the lock and takes it. */
    public function acquire(): void
    {
        $pid = (int) \getmypid();
        if ($pid !== $this->pid) {
            $this->descriptor = $this->reopen();
            $this->pid = $pid;
        }
        $this->flock(self::LOCK_EX);
    }

    public function release(): void
    {
        $this->flock(self::LOCK_UN);
    }

    private function flock(int $operation): void
    {
        // A signal may interrupt the wait (pcntl handlers installed without SA_RESTART): wait again.
        while ($this->libc->flock($this->descriptor, $operation) !== 0) { // @phpstan-ignore method.notFound
            $errno = self::errno($this->libc);
            if ($errno !== self::EINTR) {
                throw new \RuntimeException(\sprintf('flock() on the shared cache\'s lock failed (errno %d)', $errno));
            }
        }
    }

    /** This process's own open file of the lock, through the descriptor it inherited. */
    private function reopen(): int
    {
        $descriptor = (int) $this->libc->open('/proc/self/fd/' . $this->inherited, self::O_RDWR | self::O_CLOEXEC); // @phpstan-ignore method.notFound
        $stat = $descriptor < 0 ? false : @\stat('/proc/self/fd/' . $descriptor);
        if ($stat === false || (int) $stat['dev'] !== $this->device || (int) $stat['ino'] !== $this->inode) {
            if ($descriptor >= 0) {
                $this->libc->close($descriptor); // @phpstan-ignore method.notFound
            }
            throw new \RuntimeException(\sprintf('The shared cache\'s lock file is no longer open as descriptor %d in process %d', $this->inherited, (int) \getmypid()));
        }

        return $descriptor;
    }

    /** @throws \RuntimeException */
    private static function libc(): \FFI
    {
        if (\PHP_OS_FAMILY !== 'Linux' || !\extension_loaded('ffi')) {
            throw new \RuntimeException('The shared cache\'s lock needs Linux and the ffi extension');
        }
        $declarations = 'int open(const char *pathname, int flags, ...); int flock(int fd, int operation); int close(int fd); int *__errno_location(void);';
        $problem = '';
        foreach (['libc.so.6', 'libc.so'] as $library) {
            try {
                return \FFI::cdef($declarations, $library);
            } catch (\FFI\Exception|\FFI\ParserException $e) {
                // Not this name, or FFI not allowed here (ffi.enable=false).
                $problem = $e->getMessage();
            }
        }
        throw new \RuntimeException('The shared cache\'s lock cannot reach libc through FFI: ' . $problem);
    }

    private static function errno(\FFI $libc): int
    {
        $errno = $libc->__errno_location(); // @phpstan-ignore method.notFound

        return $errno instanceof \FFI\CData ? (int) $errno[0] : 0;
    }
}
