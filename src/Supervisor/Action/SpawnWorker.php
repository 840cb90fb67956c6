<?php

declare(strict_types=1);

namespace Spindle\Supervisor\Action;

/** Fork a worker; report its pid back with MasterState::spawned($id, $pid). */
final class SpawnWorker implements Action
{
    public function __construct(
        public readonly int $id,
        public readonly int $generation,
    ) {
    }
}
