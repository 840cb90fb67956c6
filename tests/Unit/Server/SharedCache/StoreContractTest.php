<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server\SharedCache;

use PHPUnit\Framework\TestCase;
use Spindle\Server\SharedCache\MemoryStore;
use Spindle\Server\SharedCache\ShmStore;
use Spindle\Server\SharedCache\SharedCache;
use Spindle\Server\SharedCache\Store;

/**
 * One contract for every store of the shared cache (the APCu store is driven through a real
 * server in tests/E2E/SharedCacheTest.php: the CLI that runs these tests has APCu disabled).
 */
final class StoreContractTest extends TestCase
{
    private ?string $dir = null;

    protected function tearDown(): void
    {
        if ($this->dir !== null) {
            @\rmdir($this->dir);
        }
    }

    /** @return array<string, array{\Closure(int): Store}> */
    public static function stores(): array
    {
        return [
            'memory' => [static fn (int $bytes): Store => new MemoryStore($bytes)],
            'shm' => [static fn (int $bytes): Store => ShmStore::create($bytes)],
        ];
    }

    /** @dataProvider stores */
    public function testValuesOfEveryTypeComeBackAsStored(\Closure $make): void
    {
        $store = $make(1 << 20);
        $values = ['string' => 'text', 'int' => 42, 'float' => 1.5, 'null' => null, 'false' => false, 'true' => true, 'array' => ['a' => [1, 2]], 'object' => new \ArrayObject([1]), 'empty' => ''];
        foreach ($values as $key => $value) {
            self::assertTrue($store->set($key, $value));
        }
        foreach ($values as $key => $value) {
            self::assertEquals($value, $store->fetch($key, $found), $key);
            self::assertTrue($found, $key);
        }
        self::assertNull($store->fetch('missing', $found));
        self::assertFalse($found);
        self::assertTrue($store->set('string', 'replaced'));
        self::assertSame('replaced', $store->fetch('string'));
    }

    /** @dataProvider stores */
    public function testAddIncrementDeleteAndDeleteIf(\Closure $make): void
    {
        $store = $make(1 << 20);
        self::assertTrue($store->add('a', 1));
        self::assertFalse($store->add('a', 2));
        self::assertSame(1, $store->fetch('a'));
        self::assertSame(5, $store->increment('n', 5), 'a missing key takes the step');
        self::assertSame(3, $store->increment('n', -2));
        self::assertSame(11, $store->increment('s', 1) + 10);
        $store->set('text', '7 apples');
        self::assertSame(9, $store->increment('text', 2), 'the whole-number value of what is stored, as Laravel\'s array store');
        self::assertTrue($store->delete('a'));
        self::assertFalse($store->delete('a'));
        $store->set('lock', 'owner-1');
        self::assertFalse($store->deleteIf('lock', 'owner-2'));
        self::assertTrue($store->deleteIf('lock', 'owner-1'));
        self::assertFalse($store->deleteIf('lock', 'owner-1'));
    }

    /** @dataProvider stores */
    public function testEntriesExpire(\Closure $make): void
    {
        $store = $make(1 << 20);
        $store->set('short', 'v', 0.05);
        $store->set('long', 'v', 60);
        self::assertSame('v', $store->fetch('short'));
        \usleep(80000);
        self::assertNull($store->fetch('short', $found));
        self::assertFalse($found);
        self::assertTrue($store->add('short', 'again'), 'an expired entry can be added again');
        self::assertSame('v', $store->fetch('long'));
        $store->set('counter', 1, 60);
        self::assertSame(2, $store->increment('counter'));
    }

    /** @dataProvider stores */
    public function testClearByPrefixAndWhole(\Closure $make): void
    {
        $store = $make(1 << 20);
        $store->set('app1:a', 1);
        $store->set('app1:b', 2);
        $store->set('app2:a', 3);
        self::assertTrue($store->clear('app1:'));
        self::assertNull($store->fetch('app1:a'));
        self::assertNull($store->fetch('app1:b'));
        self::assertSame(3, $store->fetch('app2:a'));
        self::assertTrue($store->clear());
        self::assertNull($store->fetch('app2:a'));
    }

    /** @dataProvider stores */
    public function testTheSizeLimitPushesOutTheOldestWrites(\Closure $make): void
    {
        $store = $make(262144);
        $value = \str_repeat('x', 1000);
        for ($i = 0; $i < 2000; ++$i) {
            self::assertTrue($store->set('k' . $i, $value));
        }
        $alive = 0;
        for ($i = 0; $i < 2000; ++$i) {
            $store->fetch('k' . $i, $found);
            $alive += $found ? 1 : 0;
        }
        self::assertLessThanOrEqual(262, $alive);
        self::assertGreaterThan(200, $alive);
        self::assertNull($store->fetch('k0'));
        self::assertSame($value, $store->fetch('k1999'));
        self::assertFalse($store->set('huge', \str_repeat('x', 300000)), 'a value larger than the cache is refused');
        self::assertGreaterThan(0, $store->stats()['writes']);
    }

    /**
     * A forked child sees the parent's writes at once, and increments from both are atomic: the
     * child takes the lock through a file of its own (reopened through /proc/self/fd), while
     * no name of the lock's file is left in the directory it was made in.
     */
    public function testAShmStoreIsSharedWithForkedProcessesAtOnce(): void
    {
        $this->dir = \sys_get_temp_dir() . '/spindle-test-cache-' . \bin2hex(\random_bytes(4));
        \mkdir($this->dir, 0700);
        $store = ShmStore::create(1 << 20, $this->dir);
        self::assertSame(['.', '..'], \scandir($this->dir), 'the lock\'s file has no name once the store exists');
        $store->set('before', 'fork');
        $pipe = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
        self::assertIsArray($pipe);
        $pid = \pcntl_fork();
        if ($pid === 0) {
            // The child: reads what the parent stored, stores its own, says when, counts.
            $ok = $store->fetch('before') === 'fork';
            for ($i = 0; $i < 2000; ++$i) {
                $store->increment('counter');
            }
            $store->set('from-child', 'hello');
            \fwrite($pipe[1], \sprintf("%d %.9f\n", $ok ? 1 : 0, \microtime(true)));
            \fclose($pipe[1]);
            \posix_kill(\getmypid(), \SIGKILL);
        }
        for ($i = 0; $i < 2000; ++$i) {
            $store->increment('counter');
        }
        $line = (string) \fgets($pipe[0]);
        $seenAt = null;
        while ($store->fetch('from-child') !== 'hello') {
            \usleep(10);
        }
        $seenAt = \microtime(true);
        \pcntl_waitpid($pid, $status);
        [$ok, $writtenAt] = \explode(' ', \trim($line));
        self::assertSame('1', $ok, 'the child saw what the parent stored before the fork');
        self::assertSame('hello', $store->fetch('from-child'));
        // Written before the child told the parent: visible as soon as the parent looks.
        self::assertLessThan(1.0, $seenAt - (float) $writtenAt, 'seen within a second of the write (at once, in practice)');
        self::assertSame(4000, $store->fetch('counter'), 'increments from both processes are atomic');
    }

    public function testSizesAreReadWithTheirUnit(): void
    {
        self::assertSame(33554432, SharedCache::size(null));
        self::assertSame(65536, SharedCache::size('64K'));
        self::assertSame(67108864, SharedCache::size('64M'));
        self::assertSame(1000, SharedCache::size('1000'));
        $this->expectException(\InvalidArgumentException::class);
        SharedCache::size('lots');
    }
}
