<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony;

use PHPUnit\Framework\TestCase;
use Psr\Cache\CacheItemPoolInterface;
use Spindle\Bridge\Symfony\Cache\SharedCacheAdapter;
use Spindle\Server\SharedCache\ShmStore;
use Symfony\Component\Cache\Adapter\ArrayAdapter;
use Symfony\Contracts\Cache\ItemInterface;

/** The shared cache's Symfony pool does what Symfony's ArrayAdapter does, operation for operation. */
final class SharedCacheAdapterTest extends TestCase
{
    /** @return list<array{string, mixed}> */
    private static function transcript(CacheItemPoolInterface&\Symfony\Contracts\Cache\CacheInterface $pool): array
    {
        $log = [];
        $item = $pool->getItem('k');
        $log[] = ['miss', [$item->isHit(), $item->get()]];
        $pool->save($item->set(['a' => 1]));
        $log[] = ['hit', [$pool->getItem('k')->isHit(), $pool->getItem('k')->get()]];
        $pool->save($pool->getItem('null')->set(null));
        $log[] = ['null hit', $pool->getItem('null')->isHit()];
        $pool->save($pool->getItem('false')->set(false));
        $log[] = ['false', [$pool->getItem('false')->isHit(), $pool->getItem('false')->get()]];
        $log[] = ['hasItem', [$pool->hasItem('k'), $pool->hasItem('nope')]];
        $log[] = ['getItems', \array_map(static fn ($i) => [$i->isHit(), $i->get()], \iterator_to_array($pool->getItems(['k', 'nope'])))];
        $pool->saveDeferred($pool->getItem('deferred')->set('later'));
        $log[] = ['deferred visible', $pool->getItem('deferred')->get()];
        $log[] = ['commit', $pool->commit()];
        $log[] = ['deleteItem', [$pool->deleteItem('k'), $pool->hasItem('k')]];
        $log[] = ['get computes', $pool->get('computed', static fn (ItemInterface $i): string => 'value')];
        $log[] = ['get cached', $pool->get('computed', static fn (ItemInterface $i): string => 'recomputed')];
        $expiring = $pool->getItem('expiring')->set('soon')->expiresAfter(1);
        $pool->save($expiring);
        $log[] = ['expiring now', $pool->getItem('expiring')->isHit()];
        $log[] = ['delete', $pool->delete('computed')];
        $log[] = ['clear', $pool->clear()];
        $log[] = ['after clear', [$pool->hasItem('deferred'), $pool->hasItem('null')]];

        return $log;
    }

    public function testItBehavesAsTheArrayAdapter(): void
    {
        $shared = new SharedCacheAdapter('app', 0, ShmStore::create(1 << 20));
        self::assertSame(self::transcript(new ArrayAdapter(0, false)), self::transcript($shared));
    }

    public function testClearingOnePoolLeavesAnotherNamespaceAlone(): void
    {
        $store = ShmStore::create(1 << 20);
        $one = new SharedCacheAdapter('one', 0, $store);
        $two = new SharedCacheAdapter('two', 0, $store);
        $one->save($one->getItem('k')->set(1));
        $two->save($two->getItem('k')->set(2));
        $one->clear();
        self::assertFalse($one->hasItem('k'));
        self::assertSame(2, $two->getItem('k')->get());
    }
}
