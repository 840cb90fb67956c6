<?php

declare(strict_types=1);

namespace Spindle\Bridge;

use Psr\Log\LoggerInterface;
use Revolt\EventLoop;

/**
 * Checks that the app instances a worker lets go (a Laravel app, a Symfony kernel) are freed.
 * watch() is told of each one as it is let go; once the loop has run what was pending, check()
 * looks at them through weak references. One still reachable, and not one the framework is known
 * to hold until the next boot or request ($exempt), is a leak that grows with every burst: the
 * worker warns once, naming the static property through which it is reachable where there is
 * one (StaticHolder), and the caller's advice.
 */
final class ReleasedObjects
{
    /** @var array<int, \WeakReference<object>> number => the object let go */
    private array $watched = [];
    private bool $scheduled = false;
    private bool $warned = false;

    /**
     * @param string $what what the objects are, for the warning ("Laravel instance")
     * @param \Closure(int): bool $exempt whether a number may stay reachable for now
     * @param \Closure(?string): string $advice what to do, given the holder's path if found
     */
    public function __construct(
        private readonly LoggerInterface $logger,
        private readonly string $what,
        private readonly \Closure $exempt,
        private readonly \Closure $advice,
    ) {
    }

    /** $object, number $number, was let go: it is looked at once the loop ran what is pending. */
    public function watch(int $number, object $object): void
    {
        $this->watched[$number] = \WeakReference::create($object);
        if (!$this->scheduled) {
            $this->scheduled = true;
            EventLoop::defer(function (): void {
                $this->scheduled = false;
                $this->check();
            });
        }
    }

    /** Warns about the first one still reachable that is not exempt; forgets those freed and those warned about. */
    public function check(): void
    {
        foreach ($this->watched as $number => $reference) {
            $live = $reference->get();
            if ($live === null) {
                unset($this->watched[$number]);
                continue;
            }
            if (($this->exempt)($number)) {
                continue;
            }
            unset($this->watched[$number]);
            if ($this->warned) {
                continue;
            }
            $this->warned = true;
            $holder = StaticHolder::find($live);
            unset($live);
            $this->logger->warning(\sprintf(
                '%s %d was let go but is still referenced%s, so its memory stays until the worker restarts (this is said once per worker). %s',
                $this->what,
                $number,
                $holder === null ? '' : ' from ' . $holder,
                ($this->advice)($holder),
            ));
        }
    }
}
