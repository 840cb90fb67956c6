<?php

declare(strict_types=1);

namespace Spindle\Loop\Driver\Epoll;

/**
 * The few libc functions the epoll driver calls, bound through FFI: epoll, close, errno and the
 * descriptor limit (RLIMIT_NOFILE). Loading it is the test of whether the epoll driver can run:
 * Linux, ext-ffi, and FFI allowed in this process (the CLI's default `ffi.enable=preload` does).
 */
final class Libc
{
    private const RLIMIT_NOFILE = 7;

    private function __construct(public readonly \FFI $ffi)
    {
    }

    /** @throws EpollException */
    public static function load(): self
    {
        if (\PHP_OS_FAMILY !== 'Linux' || !\extension_loaded('ffi')) {
            throw new EpollException('epoll needs Linux and the ffi extension');
        }
        // struct epoll_event is packed on x86-64 only (12 bytes there, 16 elsewhere).
        // (FFI takes the attribute between `struct` and the name only.)
        $packed = \php_uname('m') === 'x86_64' ? '__attribute__((packed))' : '';
        $declarations = <<<C
            struct {$packed} epoll_event { uint32_t events; uint64_t data; };
            struct rlimit { unsigned long rlim_cur; unsigned long rlim_max; };
            int epoll_create1(int flags);
            int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event);
            int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout);
            int close(int fd);
            int *__errno_location(void);
            int getrlimit(int resource, struct rlimit *rlim);
            int setrlimit(int resource, const struct rlimit *rlim);
            C;
        $problem = '';
        foreach (['libc.so.6', 'libc.so'] as $library) {
            try {
                return new self(\FFI::cdef($declarations, $library));
            } catch (\FFI\Exception|\FFI\ParserException $e) {
                // Not this name, or FFI not allowed here (ffi.enable=false).
                $problem = $e->getMessage();
            }
        }
        throw new EpollException('FFI cannot load libc: ' . $problem);
    }

    /**
     * Raises this process's soft limit on open descriptors toward the hard limit, so that it can
     * hold $wanted of them; returns the soft limit now in force.
     */
    public function raiseDescriptorLimit(int $wanted): int
    {
        $limit = $this->ffi->new('struct rlimit');
        // The libc functions and C structure fields reached through FFI are unknown to PHPStan.
        if ($limit === null || $this->ffi->getrlimit(self::RLIMIT_NOFILE, \FFI::addr($limit)) !== 0) { // @phpstan-ignore method.notFound
            return $wanted;
        }
        $soft = (int) $limit->rlim_cur; // @phpstan-ignore property.notFound
        $hard = (int) $limit->rlim_max; // @phpstan-ignore property.notFound
        // RLIM_INFINITY reads as -1 through a signed PHP int.
        if ($soft < 0 || $soft >= $wanted) {
            return $soft < 0 ? \PHP_INT_MAX : $soft;
        }
        $target = $hard < 0 ? $wanted : \min($wanted, $hard);
        if ($target <= $soft) {
            return $soft;
        }
        $limit->rlim_cur = $target; // @phpstan-ignore property.notFound

        return $this->ffi->setrlimit( // @phpstan-ignore method.notFound
self::RLIMIT_NOFILE, \FFI::addr($limit)) === 0 ? $target : $soft;
    }
}
