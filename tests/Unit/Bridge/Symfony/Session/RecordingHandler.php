<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony\Session;

/** A save handler in memory that records its calls. */
final class RecordingHandler implements \SessionHandlerInterface, \SessionUpdateTimestampHandlerInterface
{
    /** @var list<string> */
    public array $calls = [];
    /** @var array<string, string> */
    public array $sessions = [];

    public function open(string $path, string $name): bool
    {
        $this->calls[] = 'open';

        return true;
    }

    public function close(): bool
    {
        $this->calls[] = 'close';

        return true;
    }

    public function read(string $id): string|false
    {
        $this->calls[] = "read {$id}";

        return $this->sessions[$id] ?? '';
    }

    public function write(string $id, string $data): bool
    {
        $this->calls[] = "write {$id}";
        $this->sessions[$id] = $data;

        return true;
    }

    public function destroy(string $id): bool
    {
        $this->calls[] = "destroy {$id}";
        unset($this->sessions[$id]);

        return true;
    }

    public function gc(int $max_lifetime): int|false
    {
        $this->calls[] = "gc {$max_lifetime}";

        return 0;
    }

    public function validateId(string $id): bool
    {
        $this->calls[] = "validateId {$id}";

        return isset($this->sessions[$id]);
    }

    public function updateTimestamp(string $id, string $data): bool
    {
        $this->calls[] = "updateTimestamp {$id}";

        return true;
    }
}
