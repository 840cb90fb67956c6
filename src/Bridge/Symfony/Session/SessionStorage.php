<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

use Symfony\Component\HttpFoundation\Session\SessionBagInterface;
use Symfony\Component\HttpFoundation\Session\Storage\MetadataBag;
use Symfony\Component\HttpFoundation\Session\Storage\SessionStorageInterface;

/**
 * A Symfony session storage that keeps one request's session in the object, never in PHP's
 * session module: no session_start(), no $_SESSION, no session_id(). PHP keeps those once per
 * process, so with NativeSessionStorage two requests running at once in a Spindle worker would
 * share (and clobber) them.
 *
 * It does what NativeSessionStorage has PHP do: takes the id the request's cookie gave
 * (setId()), rejects an id of the wrong form and, in strict mode, one the save handler does not
 * know; reads and writes the data through the app's save handler in PHP's own format; generates
 * ids from random_bytes() with session.sid_length / sid_bits_per_character; skips the write of
 * unchanged data (lazy_write); collects garbage with gc_probability / gc_divisor.
 * The session cookie is left to Symfony's session listener and SessionLifecycle.
 */
final class SessionStorage implements SessionStorageInterface
{
    private const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,-';

    /** @var array<string, SessionBagInterface> */
    private array $bags = [];
    /** @var array<array-key, mixed> */
    private array $data = [];
    private bool $started = false;
    private string $id = '';
    private string $name;
    /** The bytes read at start, to skip writing them back unchanged. */
    private ?string $loaded = null;
    private ?int $cookieLifetime = null;
    /** Whether the session was started during this request, and how the last save left it. */
    private bool $used = false;
    private bool $savedEmpty = true;
    private readonly SessionSerializer $serializer;
    private readonly MetadataBag $metadataBag;

    public function __construct(
        public readonly SessionOptions $options,
        private readonly \SessionHandlerInterface $handler,
        ?MetadataBag $metadataBag = null,
        private readonly string $savePath = '',
    ) {
        $this->name = $options->name;
        $this->serializer = new SessionSerializer($options->serializeHandler);
        $this->metadataBag = $metadataBag ?? new MetadataBag();
    }

    public function start(): bool
    {
        if ($this->started) {
            return true;
        }
        if (!$this->handler->open($this->savePath, $this->name)) {
            throw new \RuntimeException(\sprintf('Failed to open the session save handler %s', $this->handler::class));
        }
        $id = $this->id;
        if ($id !== '' && !self::validId($id)) {
            $id = '';
        }
        if ($id !== '' && $this->options->strictMode && !$this->known($id)) {
            $id = '';
        }
        $this->id = $id === '' ? $this->newId() : $id;
        $bytes = $this->handler->read($this->id);
        $bytes = \is_string($bytes) ? $bytes : '';
        try {
            $data = $this->serializer->decode($bytes);
        } catch (\UnexpectedValueException $e) {
            \trigger_error(\sprintf('Session %s… could not be decoded and starts empty: %s', \substr($this->id, 0, 6), $e->getMessage()), \E_USER_WARNING);
            $data = [];
            $bytes = '';
        }
        $this->loaded = $bytes;
        $this->data = $data;
        $this->collectGarbage();
        $this->loadSession();
        $this->used = true;

        return true;
    }

    public function getId(): string
    {
        return $this->id;
    }

    public function setId(string $id): void
    {
        if ($this->started) {
            throw new \LogicException('Cannot change the ID of an active session.');
        }
        $this->id = $id;
    }

    public function getName(): string
    {
        return $this->name;
    }

    public function setName(string $name): void
    {
        if ($this->started) {
            throw new \LogicException('Cannot change the name of an active session.');
        }
        $this->name = $name;
    }

    public function regenerate(bool $destroy = false, ?int $lifetime = null): bool
    {
        if (!$this->started) {
            return false;
        }
        if ($lifetime !== null) {
            $this->cookieLifetime = $lifetime;
        }
        $old = $this->id;
        if ($destroy) {
            $this->metadataBag->stampNew($lifetime ?? $this->cookieLifetime());
            $this->handler->destroy($old);
        } else {
            // As session_regenerate_id(false): the old id keeps the data it has now.
            $this->handler->write($old, $this->serializer->encode($this->persistent()));
        }
        // A new id that already holds data (a collision) is drawn again, a few times at most.
        for ($attempt = 0; $attempt < 3; ++$attempt) {
            $this->id = $this->newId();
            $existing = $this->handler->read($this->id);
            if (!\is_string($existing) || $existing === '') {
                break;
            }
        }
        // The data now belongs to the new id: written at save() even if unchanged.
        $this->loaded = null;

        return true;
    }

    public function save(): void
    {
        if (!$this->started) {
            return;
        }
        $session = $this->data;
        $this->data = $this->persistent();
        try {
            $bytes = $this->serializer->encode($this->data);
            if ($this->options->lazyWrite && $bytes === $this->loaded) {
                $written = $this->handler instanceof \SessionUpdateTimestampHandlerInterface
                    ? $this->handler->updateTimestamp($this->id, $bytes)
                    : $this->handler->write($this->id, $bytes);
            } else {
                $written = $this->handler->write($this->id, $bytes);
            }
            if (!$written) {
                \trigger_error(\sprintf('Failed to write session data with the "%s" handler', $this->handler::class), \E_USER_WARNING);
            }
            $this->handler->close();
        } finally {
            $this->savedEmpty = $this->data === [];
            // As NativeSessionStorage: the bags keep their data unless the session was left empty.
            if ($this->data !== []) {
                $this->data = $session;
            }
            $this->started = false;
            $this->loaded = null;
        }
    }

    public function clear(): void
    {
        foreach ($this->bags as $bag) {
            $bag->clear();
        }
        $this->data = [];
        $this->loadSession();
    }

    public function registerBag(SessionBagInterface $bag): void
    {
        if ($this->started) {
            throw new \LogicException('Cannot register a bag when the session is already started.');
        }
        $this->bags[$bag->getName()] = $bag;
    }

    public function getBag(string $name): SessionBagInterface
    {
        if (!isset($this->bags[$name])) {
            throw new \InvalidArgumentException(\sprintf('The SessionBagInterface "%s" is not registered.', $name));
        }
        if (!$this->started) {
            $this->start();
        }

        return $this->bags[$name];
    }

    public function getMetadataBag(): MetadataBag
    {
        return $this->metadataBag;
    }

    public function isStarted(): bool
    {
        return $this->started;
    }

    /**
     * Back to a fresh storage: no id, no data, not started, nothing written. For a storage that
     * outlives its request (Symfony 5.4 keeps one Session per container).
     */
    public function reset(): void
    {
        $this->id = '';
        $this->name = $this->options->name;
        $this->data = [];
        $this->started = false;
        $this->loaded = null;
        $this->cookieLifetime = null;
        $this->used = false;
        $this->savedEmpty = true;
    }

    /** Whether the session was started since the storage was made or reset. */
    public function wasUsed(): bool
    {
        return $this->used;
    }

    /** Whether the last save() found nothing to keep (the session cookie can then be dropped). */
    public function savedEmpty(): bool
    {
        return $this->savedEmpty;
    }

    /** The cookie lifetime: framework.session's, or the one regenerate() was given. */
    public function cookieLifetime(): int
    {
        return $this->cookieLifetime ?? $this->options->cookieLifetime;
    }

    /** Whether $id has the form PHP accepts for a session id. */
    public static function validId(string $id): bool
    {
        return \preg_match('/^[a-zA-Z0-9,-]{22,256}$/D', $id) === 1;
    }

    /** A new id of session.sid_length characters, session.sid_bits_per_character bits each. */
    public function newId(): string
    {
        $mask = (1 << $this->options->sidBitsPerCharacter) - 1;
        $bytes = \random_bytes(\max(1, $this->options->sidLength));
        $id = '';
        for ($i = 0; $i < $this->options->sidLength; ++$i) {
            $id .= self::ALPHABET[\ord($bytes[$i]) & $mask];
        }

        return $id;
    }

    private function known(string $id): bool
    {
        if ($this->handler instanceof \SessionUpdateTimestampHandlerInterface) {
            return $this->handler->validateId($id);
        }
        $data = $this->handler->read($id);

        return \is_string($data) && $data !== '';
    }

    private function collectGarbage(): void
    {
        $probability = $this->options->gcProbability;
        if ($probability > 0 && \random_int(1, $this->options->gcDivisor) <= $probability) {
            $this->handler->gc($this->options->gcMaxLifetime);
        }
    }

    /**
     * The data to write: as NativeSessionStorage::save(), without empty bags, and nothing at all
     * when only the metadata is left.
     *
     * @return array<array-key, mixed>
     */
    private function persistent(): array
    {
        $data = $this->data;
        foreach ($this->bags as $bag) {
            $key = $bag->getStorageKey();
            if (empty($data[$key])) {
                unset($data[$key]);
            }
        }
        if ($data !== [] && \array_keys($data) === [$this->metadataBag->getStorageKey()]) {
            return [];
        }

        return $data;
    }

    /** Binds the bags to their slice of the data, by reference, as NativeSessionStorage does. */
    private function loadSession(): void
    {
        foreach ([...\array_values($this->bags), $this->metadataBag] as $bag) {
            $key = $bag->getStorageKey();
            $this->data[$key] = isset($this->data[$key]) && \is_array($this->data[$key]) ? $this->data[$key] : [];
            $bag->initialize($this->data[$key]);
        }
        $this->started = true;
    }
}
