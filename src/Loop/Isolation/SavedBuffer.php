<?php

declare(strict_types=1);

namespace Spindle\Loop\Isolation;

/** @internal One output buffer a task had open when it left the CPU: enough to open it again. */
final class SavedBuffer
{
    /** @param callable|null $handler null for PHP's default handler (and for a handler that cannot be named again) */
    public function __construct(
        public readonly mixed $handler,
        public readonly int $chunkSize,
        public readonly int $flags,
        public readonly string $contents,
    ) {
    }
}
