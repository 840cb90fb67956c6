<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Session\Storage\MetadataBag;
use Symfony\Component\HttpFoundation\Session\Storage\SessionStorageFactoryInterface;

/**
 * Makes Spindle's SessionStorage with the app's options, save handler and metadata bag: what
 * the kernel's session.storage.factory is replaced with (see SessionWiring).
 *
 * A kernel serves one request at a time, so the storages of its factory that were used since
 * the last reset() are the current request's. Symfony 5.4 keeps one Session (and so one
 * storage) per container for every request; reset(), at the start of each main request,
 * makes that storage forget the previous request's id and data.
 */
final class SessionStorageFactory implements SessionStorageFactoryInterface
{
    /** @var \WeakMap<SessionStorage, true> */
    private \WeakMap $storages;

    public function __construct(
        public readonly SessionOptions $options,
        public readonly \SessionHandlerInterface $handler,
        private readonly ?MetadataBag $metadataBag = null,
        private readonly string $savePath = '',
    ) {
        $this->storages = new \WeakMap();
    }

    public function createStorage(?Request $request): SessionStorage
    {
        $storage = new SessionStorage($this->options, $this->handler, $this->metadataBag, $this->savePath);
        $this->storages[$storage] = true;

        return $storage;
    }

    /**
     * The storages started since the last reset().
     *
     * @return list<SessionStorage>
     */
    public function used(): array
    {
        $used = [];
        foreach ($this->storages as $storage => $_) {
            if ($storage->wasUsed()) {
                $used[] = $storage;
            }
        }

        return $used;
    }

    /**
     * Every storage still in use forgets its session (without writing it), and the metadata
     * bag they share forgets the last session's dates.
     */
    public function reset(): void
    {
        foreach ($this->storages as $storage => $_) {
            $storage->reset();
        }
        if ($this->metadataBag !== null) {
            $fresh = [];
            $this->metadataBag->initialize($fresh);
        }
    }
}
