<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/** One placeholder in an SQL text: "?" or ":name", at a byte offset. */
final class Placeholder
{
    public function __construct(
        public readonly int $offset,
        /** "?" or ":name" as written */
        public readonly string $text,
    ) {
    }

    public function isNamed(): bool
    {
        return $this->text !== '?';
    }

    public function end(): int
    {
        return $this->offset + \strlen($this->text);
    }
}
