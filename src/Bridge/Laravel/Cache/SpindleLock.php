<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Cache;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Spindle\Server\SharedCache\Store;

/**
 * A lock of the `spindle` cache store, held across every worker of the server: acquired with the
 * store's atomic add(), released only by its owner. block() waits with Spindle\delay(), so a
 * request waiting for a lock suspends only itself.
 */
final class SpindleLock extends Lock
{
    /**
     * @param string $name
     * @param int $seconds
     * @param string|null $owner
     */
    public function __construct(private readonly Store $store, $name, $seconds, $owner = null)
    {
        parent::__construct($name, $seconds, $owner);
    }

    public function acquire(): bool
    {
        return $this->store->add($this->name, $this->owner, (float) \max(0, $this->seconds));
    }

    public function release(): bool
    {
        return $this->store->deleteIf($this->name, $this->owner);
    }

    public function forceRelease(): void
    {
        $this->store->delete($this->name);
    }

    /**
     * Tries for up to $seconds, waiting between attempts without holding up the worker.
     *
     * @param int $seconds
     * @param (callable(): mixed)|null $callback
     *
     * @throws LockTimeoutException
     */
    public function block($seconds, $callback = null): mixed
    {
        $started = \microtime(true);
        while (!$this->acquire()) {
            if (\microtime(true) - $started >= $seconds) {
                throw new LockTimeoutException();
            }
            \Spindle\delay($this->sleepMilliseconds / 1000);
        }
        if ($callback === null) {
            return true;
        }
        try {
            return $callback();
        } finally {
            $this->release();
        }
    }

    protected function getCurrentOwner(): mixed
    {
        return $this->store->fetch($this->name);
    }
}
