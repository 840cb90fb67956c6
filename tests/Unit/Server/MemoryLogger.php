<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use Psr\Log\AbstractLogger;

/** Keeps log lines for assertions. */
final class MemoryLogger extends AbstractLogger
{
    /** @var list<array{string, string}> level and message */
    public array $lines = [];
    /** @var list<array{string, string, Awaited}> level, message and who waits for it */
    private array $awaited = [];

    public function log($level, \Stringable|string $message, array $context = []): void
    {
        $this->lines[] = [(string) $level, (string) $message];
        foreach ($this->awaited as [$awaitedLevel, $awaitedMessage, $awaited]) {
            if ($awaitedLevel === (string) $level && $awaitedMessage === (string) $message) {
                $awaited->happen();
            }
        }
    }

    /** What happens when $message is logged at $level (see Awaited::wait()); at once if it was already. */
    public function awaited(string $level, string $message): Awaited
    {
        $awaited = new Awaited(\sprintf('the %s "%s" in the log', $level, $message));
        if (\in_array($message, $this->messages($level), true)) {
            $awaited->happen();
        }
        $this->awaited[] = [$level, $message, $awaited];

        return $awaited;
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
