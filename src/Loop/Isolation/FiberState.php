<?php

declare(strict_types=1);

namespace Spindle\Loop\Isolation;

/**
 * @internal What a task changed of the process-wide state, kept while it waits: only the parts
 * that differ from the baseline (null: as the baseline).
 */
final class FiberState
{
    /**
     * @param list<SavedBuffer>              $buffers
     * @param list<mixed>|null               $settings          as Settings::read() gives them
     * @param list<mixed>|null               $errorHandlers     bottom first, above the baseline's
     * @param list<mixed>|null               $exceptionHandlers bottom first, above the baseline's
     * @param list<array<mixed>>|null        $globals           $_GET, $_POST, $_COOKIE, $_FILES, $_SERVER, $_ENV, $_REQUEST
     */
    public function __construct(
        public readonly array $buffers,
        public readonly ?array $settings,
        public readonly ?array $errorHandlers,
        public readonly ?array $exceptionHandlers,
        public readonly ?array $globals,
    ) {
    }
}
