<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use Doctrine\DBAL\Connection;
use Revolt\EventLoop;

/** DBAL queries suspend only their own fiber: two connections wait on the server at the same time. */
final class FiberConcurrencyTest extends DoctrineTestCase
{
    protected array $tables = ['doctrine_fiber_log'];

    public function testTwoFibersSleepOnTheServerAtTheSameTime(): void
    {
        $a = $this->dbal();
        $b = $this->dbal();
        $watcher = $this->dbal();
        $ids = ['a' => (int) $a->fetchOne('SELECT CONNECTION_ID()'), 'b' => (int) $b->fetchOne('SELECT CONNECTION_ID()')];
        $events = [];

        foreach (['a' => $a, 'b' => $b] as $name => $db) {
            EventLoop::queue(static function () use ($name, $db, &$events): void {
                $events[] = "$name sends";
                $result = $db->fetchOne('SELECT SLEEP(0.5)');
                $events[] = "$name got $result";
            });
        }
        // A third fiber watches the server until it sees both queries running, or one of them ends.
        EventLoop::queue(static function () use ($watcher, $ids, &$events): void {
            while (!\in_array('a got 0', $events, true) && !\in_array('b got 0', $events, true)) {
                $running = $watcher->fetchFirstColumn(
                    "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(0.5)' AND ID IN (?, ?)",
                    [$ids['a'], $ids['b']],
                );
                if (\count($running) === 2) {
                    $events[] = 'server runs both';

                    return;
                }
            }
        });
        EventLoop::run();

        self::assertSame(['a sends', 'b sends', 'server runs both'], \array_slice($events, 0, 3));
        self::assertEqualsCanonicalizing(['a got 0', 'b got 0'], \array_slice($events, 3));
    }

    public function testEachFiberKeepsItsOwnTransaction(): void
    {
        $setup = $this->dbal();
        $setup->executeStatement('CREATE TABLE doctrine_fiber_log (id INT AUTO_INCREMENT PRIMARY KEY, fiber CHAR(1) NOT NULL) ENGINE=InnoDB');

        // Both fibers insert, then both read, then both commit: the two transactions are open at once.
        $waiting = [];
        $bothReach = static function () use (&$waiting): void {
            $suspension = EventLoop::getSuspension();
            $waiting[] = $suspension;
            if (\count($waiting) === 2) {
                foreach ($waiting as $fiber) {
                    EventLoop::queue($fiber->resume(...));
                }
                $waiting = [];
            }
            $suspension->suspend();
        };
        $seen = [];
        foreach (['a', 'b'] as $name) {
            $db = $this->dbal();
            EventLoop::queue(static function () use ($name, $db, $bothReach, &$seen): void {
                $db->transactional(static function (Connection $db) use ($name, $bothReach, &$seen): void {
                    $db->insert('doctrine_fiber_log', ['fiber' => $name]);
                    $seen[$name . ' id'] = $db->lastInsertId();
                    $bothReach();
                    $seen[$name] = $db->fetchFirstColumn('SELECT fiber FROM doctrine_fiber_log ORDER BY id');
                    $bothReach();
                });
            });
        }
        EventLoop::run();

        // Neither fiber saw the other's uncommitted row, and each got its own insert id.
        self::assertSame(['a'], $seen['a']);
        self::assertSame(['b'], $seen['b']);
        self::assertNotEquals($seen['a id'], $seen['b id']);
        self::assertEqualsCanonicalizing(['a', 'b'], $setup->fetchFirstColumn('SELECT fiber FROM doctrine_fiber_log'));
    }
}
