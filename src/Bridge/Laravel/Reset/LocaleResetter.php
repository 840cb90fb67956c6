<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Carbon\Carbon;
use Illuminate\Foundation\Application;
use Illuminate\Translation\Translator;

/**
 * Puts the locale back to the one after boot: the translator's locale and fallback (the
 * configuration, which holds `app.locale`, is restored by ConfigResetter) and Carbon's locale.
 */
final class LocaleResetter implements Resetter
{
    private readonly string $locale;
    private readonly string $fallback;
    private readonly string $carbonLocale;
    /** @var BootedService<Translator> */
    private readonly BootedService $translator;

    public function __construct(private readonly Application $app)
    {
        $this->locale = $app->getLocale();
        $this->translator = BootedService::of($app, 'translator', Translator::class);
        $this->fallback = $this->translator->current()?->getFallback() ?? $this->locale;
        $this->carbonLocale = Carbon::getLocale();
    }

    public function reset(): void
    {
        $translator = $this->translator->current();
        if ($translator !== null) {
            if ($translator->getLocale() !== $this->locale) {
                $translator->setLocale($this->locale);
            }
            if ($translator->getFallback() !== $this->fallback) {
                $translator->setFallback($this->fallback);
            }
        }
        if (Carbon::getLocale() !== $this->carbonLocale) {
            Carbon::setLocale($this->carbonLocale);
        }
    }
}
