<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Action;

/**
 * A reload asked for while the master could not start one (another reload runs, or it stops).
 * Only the asker gets the refusal: a reload already running goes on and reports its own outcome.
 */
final class ReloadRefused implements Action
{
    public function __construct(public readonly string $error)
    {
    }
}
