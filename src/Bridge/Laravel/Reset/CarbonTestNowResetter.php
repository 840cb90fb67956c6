<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Carbon\Carbon;
use Carbon\CarbonImmutable;

/**
 * Puts Carbon's test time back to the one after boot (usually none): `Carbon::setTestNow()`
 * in a request would otherwise freeze the clock of every later request on the instance. Carbon
 * 3 keeps one test time for Carbon and CarbonImmutable, Carbon 2 one each; both are restored.
 * (Carbon's locale is LocaleResetter's.)
 */
final class CarbonTestNowResetter implements Resetter
{
    private readonly mixed $mutable;
    private readonly mixed $immutable;

    public function __construct()
    {
        $this->mutable = Carbon::getTestNow();
        $this->immutable = CarbonImmutable::getTestNow();
    }

    public function reset(): void
    {
        if (Carbon::getTestNow() != $this->mutable) {
            Carbon::setTestNow($this->mutable);
        }
        if (CarbonImmutable::getTestNow() != $this->immutable) {
            CarbonImmutable::setTestNow($this->immutable);
        }
    }
}
