<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Support\Facades\Facade;

/**
 * Forgets the objects facades resolved during the request (a facade keeps the object it first
 * resolved; a request that swapped a binding must not leave the swapped object behind).
 * Runs while the request's instance owns the statics, so only its resolved instances go.
 */
final class FacadeResetter implements Resetter
{
    public function reset(): void
    {
        Facade::clearResolvedInstances();
    }
}
