<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Action;

/** A reload ended: the new generation serves, or it failed and the old one still does. */
final class ReloadFinished implements Action
{
    public function __construct(
        public readonly bool $succeeded,
        public readonly int $generation,
        public readonly ?string $error = null,
    ) {
    }
}
