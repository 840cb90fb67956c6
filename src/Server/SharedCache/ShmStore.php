<?php

declare(strict_types=1);

namespace Spindle\Server\SharedCache;

/**
 * The shared cache in a System V shared memory segment (PHP's shmop), made by the master before
 * it forks and inherited by every worker, with no extension beyond shmop and no process in between.
 *
 * The segment holds a header, an index and a log:
 * - the log is a ring of records (key and serialized value) written one after another: a write
 *   appends, so the oldest writes are the first overwritten once the ring wraps. That is the
 *   size limit and its eviction (oldest written first), with nothing to free or compact.
 * - the index is a table of buckets of 8 slots (key hash, record position, expiry, length); a key
 *   lives in the bucket its hash names; a full bucket gives up its oldest slot.
 * Positions are counted in bytes since the segment was made and never reused, so a record is
 * still whole exactly while the log's head is less than one ring past it.
 *
 * Reads take no lock: a reader checks the record it read against the slot (position, key) and
 * the head after reading (a write moves the head before it writes). Writes take a ProcessLock
 * (an flock() on a file with no name on disk), so add(), increment() and deleteIf() are atomic
 * across workers. This relies on stores not being reordered with stores nor loads with loads, as on x86-64.
 */
final class ShmStore implements Store
{
    private const HEADER = 64;
    private const SLOT = 32;
    private const WAYS = 8;
    private const BUCKET = self::SLOT * self::WAYS;
    /** Record header: total length (u32), key length (u16), position (u64). */
    private const RECORD_HEAD = 14;
    private const EMPTY_HASH = "\0\0\0\0\0\0\0\0";

    private int $hits = 0;
    private int $misses = 0;
    private int $writes = 0;
    private int $evictions = 0;

    private function __construct(
        private readonly \Shmop $shm,
        private readonly ProcessLock $lock,
        private readonly int $buckets,
        private readonly int $logSize,
    ) {
    }

    /**
     * Makes the segment: $bytes of log plus the index. It is marked for removal at once, so it
     * goes when the last process that has it exits, however the server ends; processes forked
     * from this one keep it, and its lock (whose file is made in $lockDirectory, the system's
     * temporary directory by default, and unlinked at once).
     *
     * @throws \RuntimeException when the system refuses the segment or the lock
     */
    public static function create(int $bytes, ?string $lockDirectory = null): self
    {
        $lock = ProcessLock::create($lockDirectory);
        $bytes = \max(65536, $bytes);
        // One slot per 512 bytes of log, in buckets of 8, a power of two of them.
        $buckets = 1 << (int) \ceil(\log(\max(16, \intdiv($bytes, 512 * self::WAYS)), 2));
        $shm = @\shmop_open(0, 'c', 0600, self::HEADER + $buckets * self::BUCKET + $bytes);
        if ($shm === false) {
            throw new \RuntimeException(\sprintf('Cannot create a shared memory segment of %d bytes for the shared cache (see kernel.shmmax)', $bytes));
        }
        \shmop_delete($shm);

        return new self($shm, $lock, $buckets, $bytes);
    }

    /** @param-out bool $found */
    public function fetch(string $key, ?bool &$found = null): mixed
    {
        $record = $this->find($key);
        if ($record === null) {
            $found = false;
            ++$this->misses;

            return null;
        }
        $found = true;
        ++$this->hits;
        $payload = $record[0];

        return $payload === 'b:0;' ? false : \unserialize($payload);
    }

    public function set(string $key, mixed $value, float $ttl = 0.0): bool
    {
        $this->lock();
        try {
            return $this->write($key, \serialize($value), $ttl > 0 ? (int) \ceil((\microtime(true) + $ttl) * 1000) : 0);
        } finally {
            $this->unlock();
        }
    }

    public function add(string $key, mixed $value, float $ttl = 0.0): bool
    {
        $this->lock();
        try {
            if ($this->find($key) !== null) {
                return false;
            }

            return $this->write($key, \serialize($value), $ttl > 0 ? (int) \ceil((\microtime(true) + $ttl) * 1000) : 0);
        } finally {
            $this->unlock();
        }
    }

    public function increment(string $key, int|float $by = 1): int|float
    {
        $this->lock();
        try {
            $record = $this->find($key);
            if ($record === null) {
                $this->write($key, \serialize($by), 0);

                return $by;
            }
            $value = $record[0] === 'b:0;' ? false : \unserialize($record[0]);
            $new = Increment::apply($value, $by);
            $this->write($key, \serialize($new), $record[1]);

            return $new;
        } finally {
            $this->unlock();
        }
    }

    public function delete(string $key): bool
    {
        $this->lock();
        try {
            return $this->remove($key);
        } finally {
            $this->unlock();
        }
    }

    public function deleteIf(string $key, mixed $expected): bool
    {
        $this->lock();
        try {
            $record = $this->find($key);
            if ($record === null || \unserialize($record[0]) !== $expected) {
                return false;
            }

            return $this->remove($key);
        } finally {
            $this->unlock();
        }
    }

    public function clear(string $prefix = ''): bool
    {
        $this->lock();
        try {
            if ($prefix === '') {
                \shmop_write($this->shm, \str_repeat("\0", $this->buckets * self::BUCKET), self::HEADER);

                return true;
            }
            for ($bucket = 0; $bucket < $this->buckets; ++$bucket) {
                $offset = self::HEADER + $bucket * self::BUCKET;
                $raw = \shmop_read($this->shm, $offset, self::BUCKET);
                for ($i = 0; $i < self::WAYS; ++$i) {
                    if (\substr($raw, $i * self::SLOT, 8) === self::EMPTY_HASH) {
                        continue;
                    }
                    $key = $this->keyAt($raw, $i);
                    if ($key === null || \str_starts_with($key, $prefix)) {
                        \shmop_write($this->shm, self::EMPTY_HASH, $offset + $i * self::SLOT);
                    }
                }
            }

            return true;
        } finally {
            $this->unlock();
        }
    }

    public function backend(): string
    {
        return 'shm';
    }

    public function stats(): array
    {
        return ['hits' => $this->hits, 'misses' => $this->misses, 'writes' => $this->writes, 'evictions' => $this->evictions];
    }

    /**
     * The live record of $key: its payload and expiry (ms, 0: never), or null.
     *
     * @return array{0: string, 1: int}|null
     */
    private function find(string $key): ?array
    {
        $hash = self::hash($key);
        $offset = self::HEADER + (self::u32($hash) & ($this->buckets - 1)) * self::BUCKET;
        $raw = \shmop_read($this->shm, $offset, self::BUCKET);
        $at = 0;
        while (($at = \strpos($raw, $hash, $at)) !== false) {
            if ($at % self::SLOT !== 0) {
                ++$at;
                continue;
            }
            /** @var array{pos: int, exp: int, len: int} $slot */
            $slot = \unpack('Ppos/Pexp/Vlen', $raw, $at + 8);
            if ($slot['exp'] !== 0 && $slot['exp'] <= (int) (\microtime(true) * 1000)) {
                return null;
            }
            $payload = $this->read($slot['pos'], $slot['len'], $key);

            return $payload === null ? null : [$payload, $slot['exp']];
        }

        return null;
    }

    /** The payload of the record at $pos if it is still whole and holds $key. */
    private function read(int $pos, int $len, string $key): ?string
    {
        if ($len <= self::RECORD_HEAD || $len > $this->logSize) {
            return null;
        }
        $record = \shmop_read($this->shm, self::HEADER + $this->buckets * self::BUCKET + $pos % $this->logSize, $len);
        /** @var array{len: int, klen: int, pos: int} $head */
        $head = \unpack('Vlen/vklen/Ppos', $record);
        if ($head['pos'] !== $pos || $head['len'] !== $len || \substr($record, self::RECORD_HEAD, $head['klen']) !== $key) {
            return null;
        }
        if ($this->head() > $pos + $this->logSize) {
            // Overwritten (at least in part) while it was read.
            return null;
        }

        return \substr($record, self::RECORD_HEAD + $head['klen']);
    }

    /** The key of the record in slot $i of $bucket (for clear()), or null if it is gone. */
    private function keyAt(string $bucket, int $i): ?string
    {
        /** @var array{pos: int, exp: int, len: int} $slot */
        $slot = \unpack('Ppos/Pexp/Vlen', $bucket, $i * self::SLOT + 8);
        if ($slot['len'] <= self::RECORD_HEAD || $this->head() > $slot['pos'] + $this->logSize) {
            return null;
        }
        $start = self::HEADER + $this->buckets * self::BUCKET + $slot['pos'] % $this->logSize;
        /** @var array{len: int, klen: int, pos: int} $head */
        $head = \unpack('Vlen/vklen/Ppos', \shmop_read($this->shm, $start, self::RECORD_HEAD));

        return $head['pos'] === $slot['pos'] ? \shmop_read($this->shm, $start + self::RECORD_HEAD, $head['klen']) : null;
    }

    /** Appends a record and points $key's slot at it; under the lock. */
    private function write(string $key, string $payload, int $expires): bool
    {
        $len = self::RECORD_HEAD + \strlen($key) + \strlen($payload);
        if (\strlen($key) > 65535 || $len > \intdiv($this->logSize, 4)) {
            return false;
        }
        $head = $this->head();
        $physical = $head % $this->logSize;
        if ($physical + $len > $this->logSize) {
            // Records never wrap: the rest of the ring is skipped.
            $head += $this->logSize - $physical;
            $physical = 0;
        }
        // The head moves first: a reader of a record about to be overwritten then sees it gone.
        \shmop_write($this->shm, \pack('P', $head + $len), 8);
        \shmop_write($this->shm, \pack('VvP', $len, \strlen($key), $head) . $key . $payload, self::HEADER + $this->buckets * self::BUCKET + $physical);

        $hash = self::hash($key);
        $offset = self::HEADER + (self::u32($hash) & ($this->buckets - 1)) * self::BUCKET;
        $raw = \shmop_read($this->shm, $offset, self::BUCKET);
        $target = null;
        $oldest = null;
        $oldestPos = \PHP_INT_MAX;
        for ($i = 0; $i < self::WAYS; ++$i) {
            $slotHash = \substr($raw, $i * self::SLOT, 8);
            if ($slotHash === $hash) {
                $target = $i;
                break;
            }
            $pos = self::u64($raw, $i * self::SLOT + 8);
            if ($slotHash === self::EMPTY_HASH || $head + $len > $pos + $this->logSize) {
                // Empty, or its record is overwritten: free.
                $target ??= $i;
            } elseif ($pos < $oldestPos) {
                $oldestPos = $pos;
                $oldest = $i;
            }
        }
        if ($target === null) {
            $target = $oldest ?? 0;
            ++$this->evictions;
        }
        \shmop_write($this->shm, $hash . \pack('PPVV', $head, $expires, $len, 0), $offset + $target * self::SLOT);
        ++$this->writes;

        return true;
    }

    private function remove(string $key): bool
    {
        $hash = self::hash($key);
        $offset = self::HEADER + (self::u32($hash) & ($this->buckets - 1)) * self::BUCKET;
        $raw = \shmop_read($this->shm, $offset, self::BUCKET);
        for ($i = 0; $i < self::WAYS; ++$i) {
            if (\substr($raw, $i * self::SLOT, 8) === $hash) {
                $live = $this->find($key) !== null;
                \shmop_write($this->shm, self::EMPTY_HASH, $offset + $i * self::SLOT);

                return $live;
            }
        }

        return false;
    }

    private function head(): int
    {
        return self::u64(\shmop_read($this->shm, 8, 8));
    }

    private static function u64(string $bytes, int $offset = 0): int
    {
        $value = \unpack('P', $bytes, $offset);

        return \is_array($value) ? (int) $value[1] : 0;
    }

    private static function u32(string $bytes): int
    {
        $value = \unpack('V', $bytes);

        return \is_array($value) ? (int) $value[1] : 0;
    }

    private static function hash(string $key): string
    {
        $hash = \hash('xxh64', $key, true);

        return $hash === self::EMPTY_HASH ? "\1\0\0\0\0\0\0\0" : $hash;
    }

    private function lock(): void
    {
        $this->lock->acquire();
    }

    private function unlock(): void
    {
        $this->lock->release();
    }
}
