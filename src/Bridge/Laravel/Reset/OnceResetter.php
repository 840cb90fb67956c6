<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Support\Once;

/**
 * Forgets the values `once()` cached during the request (Laravel 11 and later): they belong to
 * that request, as under PHP-FPM where the process ends with it. Nothing to do on older Laravel.
 */
final class OnceResetter implements Resetter
{

    public function __construct()
    {
        // Loads the class where this Laravel has it: reset() then asks without the autoloader,
        // whose search for a missing class costs file lookups on every request.
        \class_exists(Once::class);
    }

    public function reset(): void
    {
        if (\class_exists(Once::class, false)) {
            Once::flush();
        }
    }
}
