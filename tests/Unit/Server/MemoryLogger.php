<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use Psr\Log\AbstractLogger;

/** Keeps log lines for assertions. */
final class MemoryLogger extends AbstractLogger
{
    /** @var list<array{string, string}> level and message */
    public array $lines = [];

    public function log($level, \Stringable|string $message, array $context = []): void
    {
        $this->lines[] = [(string) $level, (string) $message];
    }

    /** @return list<string> the messages logged at $level */
    public function messages(string $level): array
    {
        $found = [];
        foreach ($this->lines as [$lineLevel, $message]) {
            if ($lineLevel === $level) {
                $found[] = $message;
            }
        }

        return $found;
    }
}
