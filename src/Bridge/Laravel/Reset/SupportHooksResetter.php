<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Spindle\Bridge\Laravel\SupportStatics;

/**
 * Puts the `Str` and `Number` hooks back to their values after boot: `Str::createUuidsUsing()`,
 * `createUlidsUsing()`, `createRandomStringsUsing()` (Laravel 9 and later), `Number::useLocale()`
 * and `useCurrency()` (Laravel 10 and later), which a request would otherwise leave set for every
 * later one. Those the running Laravel lacks are skipped.
 */
final class SupportHooksResetter implements Resetter
{
    private readonly SupportStatics $statics;
    /** @var array<int, mixed> */
    private readonly array $booted;

    public function __construct()
    {
        $this->statics = SupportStatics::hooks();
        $this->booted = $this->statics->capture();
    }

    public function reset(): void
    {
        $this->statics->restore($this->booted);
    }
}
