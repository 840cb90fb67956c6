<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * The deadlines of a worker's connections, in slots of RESOLUTION seconds: a connection is put in
 * the slot of its next deadline, and expire() (called by a timer every RESOLUTION seconds) checks
 * the connections whose slot has come, so every timeout fires within RESOLUTION of its deadline.
 *
 * A connection has one slot at a time. A deadline that moves later (the connection read or wrote)
 * leaves its slot where it is: when that slot comes, the check finds nothing expired and the
 * connection moves to the slot of its new deadline. Only a deadline that moves earlier (a request
 * begins, with a shorter timeout) needs schedule() again. That keeps the request path to one
 * comparison per state change, and idle connections cost nothing between their deadlines, unlike
 * a sweep over all connections.
 *
 * The wheel does not tick by itself: its owner (the server) runs expire() at nextDue(), and is told
 * when a slot earlier than any before comes into use (wakeBy()), so a worker with nothing to
 * time sleeps until its next deadline instead of waking every RESOLUTION seconds.
 */
final class TimeoutWheel
{
    public const RESOLUTION = 0.05;

    /** @var array<int, array<int, Expiring>> slot → connections by object id */
    private array $slots = [];
    /** @var array<int, int> object id → its slot */
    private array $slotOf = [];
    /** The last slot expire() went through. */
    private int $done;
    /** @var (\Closure(float): void)|null told the time of each slot that comes into use (see wakeBy()) */
    private ?\Closure $wake = null;

    public function __construct(float $now)
    {
        $this->done = self::slot($now) - 1;
    }

    /**
     * $wake is told the time of every slot that comes into use, so that expire() runs by then
     * (the server's timer; the wheel has none of its own).
     *
     * @param \Closure(float): void $wake
     */
    public function wakeBy(\Closure $wake): void
    {
        $this->wake = $wake;
    }

    /** When the earliest slot in use comes (INF: none is). */
    public function nextDue(): float
    {
        $earliest = null;
        foreach ($this->slots as $slot => $due) {
            if ($due === []) {
                unset($this->slots[$slot]);
            } elseif ($earliest === null || $slot < $earliest) {
                $earliest = $slot;
            }
        }

        return $earliest === null ? \INF : $earliest * self::RESOLUTION;
    }

    /** Checks $connection at $deadline (or earlier), unless it is checked earlier already (Http1Connection::checkBy() calls it only then). */
    public function schedule(Expiring $connection, float $deadline): void
    {
        if ($deadline === \INF) {
            return;
        }
        // The slot after the one the deadline falls in: expire() then runs at or past the deadline.
        $slot = \max(self::slot($deadline) + 1, $this->done + 1);
        $id = \spl_object_id($connection);
        $current = $this->slotOf[$id] ?? null;
        if ($current !== null && $current <= $slot) {
            return;
        }
        if ($current !== null) {
            unset($this->slots[$current][$id]);
        }
        $this->slotOf[$id] = $slot;
        if (!isset($this->slots[$slot]) && $this->wake !== null) {
            ($this->wake)($slot * self::RESOLUTION);
        }
        $this->slots[$slot][$id] = $connection;
    }

    public function forget(Expiring $connection): void
    {
        $id = \spl_object_id($connection);
        $slot = $this->slotOf[$id] ?? null;
        if ($slot !== null) {
            unset($this->slots[$slot][$id], $this->slotOf[$id]);
        }
    }

    /**
     * Checks the timeouts of the connections whose slot has come by $now, and puts each one that
     * stays open in the slot of its next deadline.
     */
    public function expire(float $now): void
    {
        $last = self::slot($now);
        if ($last <= $this->done) {
            return;
        }
        // Usually one slot has passed since the last call; after a long stall (or on the first
        // call), only the slots in use are looked at.
        $slots = $last - $this->done <= 64
            ? \range($this->done + 1, $last)
            : \array_filter(\array_keys($this->slots), static fn (int $slot): bool => $slot <= $last);
        $this->done = $last;
        foreach ($slots as $slot) {
            $due = $this->slots[$slot] ?? null;
            if ($due === null) {
                continue;
            }
            unset($this->slots[$slot]);
            foreach ($due as $id => $connection) {
                unset($this->slotOf[$id]);
                $connection->expireTimeouts($now);
            }
        }
    }

    /** How many connections wait for a check. */
    public function count(): int
    {
        return \count($this->slotOf);
    }

    private static function slot(float $time): int
    {
        return (int) \floor($time / self::RESOLUTION);
    }
}
