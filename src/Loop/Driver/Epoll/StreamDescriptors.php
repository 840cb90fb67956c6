<?php

declare(strict_types=1);

namespace Spindle\Loop\Driver\Epoll;

/**
 * Finds the descriptor number behind a PHP stream, which PHP does not expose: `(int) $stream` is
 * the resource's id, not its descriptor.
 *
 * It asks PHP itself, through FFI on the running binary's own exported symbols: the resource id
 * is looked up in the engine's table of resources (`executor_globals.regular_list`, with
 * `zend_hash_index_find`), and the stream found there is cast to a descriptor with
 * `_php_stream_cast(…, PHP_STREAM_AS_FD_FOR_SELECT)`, the very call stream_select() makes, so
 * every stream select() can watch (sockets, pipes, files, TLS) gives the descriptor select() would
 * watch. Two function calls, done once per stream (the driver keeps the answer).
 *
 * Where the table sits inside the executor globals changes between PHP versions, so it is found,
 * not assumed: at load, a fresh socket pair is made and the globals are searched (reading only
 * their own memory) for the hash table whose next free index is that socket's id + 1; the
 * candidate is then checked end to end: it must hold the socket, and the descriptor it gives must
 * be that socket's (the inode /proc/self/fd names is the one fstat() reports). A build where
 * this fails (thread-safe PHP, no exported symbols) gets an EpollException and keeps select().
 */
final class StreamDescriptors
{
    private const AS_FD_FOR_SELECT = 3;
    private const CAST_INTERNAL = 0x20000000;
    private const IS_ARRAY = 7;
    private const IS_RESOURCE = 9;
    /** How far into the executor globals the resource table is looked for (bytes). */
    private const SEARCH = 2048;
    /** The size of a HashTable (zend_array) on a 64-bit build. */
    private const HASH_TABLE = 56;

    private readonly \FFI\CData $fd;

    private function __construct(private readonly \FFI $php, private readonly \FFI\CData $table)
    {
        $this->fd = $php->new('int') ?? throw new EpollException('FFI cannot allocate an int');
        $this->fd->cdata = -1; // @phpstan-ignore property.notFound
    }

    /** @throws EpollException */
    public static function load(): self
    {
        if (\PHP_INT_SIZE !== 8 || \PHP_ZTS) {
            throw new EpollException('Finding a stream\'s descriptor needs a 64-bit PHP built without thread safety');
        }
        try {
            $php = \FFI::cdef(\sprintf(
                'unsigned char executor_globals[%d];'
                . 'void *zend_hash_index_find(const void *ht, uint64_t h);'
                . 'int _php_stream_cast(void *stream, int castas, void **ret, int show_err);',
                self::SEARCH,
            ));
        } catch (\FFI\Exception $e) {
            throw new EpollException('FFI cannot reach PHP\'s own symbols: ' . $e->getMessage(), 0, $e);
        }
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        if ($pair === false) {
            throw new EpollException('Cannot make a socket pair to find PHP\'s resource table with');
        }
        try {
            return self::search($php, $pair[1]);
        } finally {
            \fclose($pair[0]);
            \fclose($pair[1]);
        }
    }

    /**
     * The descriptor of $stream.
     *
     * @param resource $stream
     *
     * @throws EpollException for a closed stream or one that has no descriptor (php://memory)
     */
    public function of(mixed $stream): int
    {
        $fd = self::descriptor($this->php, $this->table, (int) $stream, $this->fd);
        if ($fd === null) {
            throw new EpollException(\sprintf('Stream #%d (%s) has no descriptor epoll can watch', (int) $stream, \get_resource_type($stream)));
        }

        return $fd;
    }

    /** @param resource $probe the newest resource of the process */
    private static function search(\FFI $php, mixed $probe): self
    {
        $id = (int) $probe;
        $stat = \fstat($probe);
        $inode = \is_array($stat) ? $stat['ino'] : -1;
        $globals = $php->executor_globals; // @phpstan-ignore property.notFound (a C variable reached through FFI)
        \assert($globals instanceof \FFI\CData);
        $fd = $php->new('int') ?? throw new EpollException('FFI cannot allocate an int');
        $fd->cdata = -1; // @phpstan-ignore property.notFound
        for ($offset = 0; $offset + 2 * self::HASH_TABLE <= self::SEARCH; $offset += 8) {
            if (!self::looksLikeTheTable($php, $globals, $offset, $id)) {
                continue;
            }
            $table = \FFI::addr($globals[$offset]);
            $found = self::descriptor($php, $table, $id, $fd);
            if ($found !== null && @\readlink('/proc/self/fd/' . $found) === 'socket:[' . $inode . ']') {
                return new self($php, $table);
            }
        }
        throw new EpollException('PHP\'s resource table was not found: this PHP build is not one the epoll driver knows');
    }

    /**
     * A HashTable here: refcount 1, type array, a table size that is a power of two, a next free
     * index one past the newest resource, and another array right after it (the persistent list).
     */
    private static function looksLikeTheTable(\FFI $php, \FFI\CData $globals, int $offset, int $newest): bool
    {
        $words = $php->cast('uint32_t *', \FFI::addr($globals[$offset]));
        $longs = $php->cast('int64_t *', \FFI::addr($globals[$offset]));
        $next = $php->cast('uint32_t *', \FFI::addr($globals[$offset + self::HASH_TABLE]));
        \assert($words !== null && $longs !== null && $next !== null);
        $size = (int) $words[8];

        return $words[0] === 1 && ((int) $words[1] & 0xF) === self::IS_ARRAY
            && $size >= 8 && ($size & ($size - 1)) === 0
            && $longs[5] === $newest + 1 && $longs[2] !== 0 && $longs[6] !== 0
            && ((int) $next[1] & 0xF) === self::IS_ARRAY;
    }

    private static function descriptor(\FFI $php, \FFI\CData $table, int $id, \FFI\CData $fd): ?int
    {
        // PHP's own functions reached through FFI are unknown to PHPStan.
        $zval = $php->zend_hash_index_find($table, $id); // @phpstan-ignore method.notFound
        if (!$zval instanceof \FFI\CData) {
            return null;
        }
        $type = $php->cast('uint8_t *', $zval);
        $pointer = $php->cast('void **', $zval);
        \assert($type !== null && $pointer !== null);
        if ($type[8] !== self::IS_RESOURCE) {
            return null;
        }
        // zend_resource: refcount header, handle, type, then the stream pointer.
        $resource = $php->cast('void **', $pointer[0]);
        $handle = $php->cast('int64_t *', $pointer[0]);
        \assert($resource !== null && $handle !== null);
        if ($handle[1] !== $id || $resource[3] === null) {
            return null;
        }
        $cast = (int) $php->_php_stream_cast($resource[3], self::AS_FD_FOR_SELECT | self::CAST_INTERNAL, $php->cast('void **', \FFI::addr($fd)), 0); // @phpstan-ignore method.notFound
        $found = (int) $fd->cdata; // @phpstan-ignore property.notFound
        // -1 again for the next cast, which writes the descriptor only where it succeeds.
        $fd->cdata = -1; // @phpstan-ignore property.notFound

        return $cast === 0 && $found >= 0 ? $found : null;
    }
}
