<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pdo;

/** For PDO::FETCH_SERIALIZE, which calls Serializable::unserialize(). */
final class SerializableTarget implements \Serializable
{
    public string $data = '';

    public function serialize(): string
    {
        return $this->data;
    }

    public function unserialize(string $data): void
    {
        $this->data = 'unserialized ' . $data;
    }

    /** @return array{string} */
    public function __serialize(): array
    {
        return [$this->data];
    }

    /** @param array{string} $data */
    public function __unserialize(array $data): void
    {
        $this->data = $data[0];
    }
}
