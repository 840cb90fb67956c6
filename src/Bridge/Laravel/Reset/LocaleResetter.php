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
    private readonly ?Translator $booted;

    public function __construct(private readonly Application $app)
    {
        $this->locale = $app->getLocale();
        $this->booted = BootedService::of($app, 'translator', Translator::class);
        $translator = $this->booted ?? ($app->resolved('translator') ? $app->make('translator') : null);
        $this->fallback = $translator instanceof Translator ? $translator->getFallback() : $this->locale;
        $this->carbonLocale = Carbon::getLocale();
    }

    public function reset(): void
    {
        if ($this->booted !== null || $this->app->resolved('translator')) {
            $translator = $this->booted ?? $this->app->make('translator');
            if ($translator instanceof Translator) {
                if ($translator->getLocale() !== $this->locale) {
                    $translator->setLocale($this->locale);
                }
                if ($translator->getFallback() !== $this->fallback) {
                    $translator->setFallback($this->fallback);
                }
            }
        }
        if (Carbon::getLocale() !== $this->carbonLocale) {
            Carbon::setLocale($this->carbonLocale);
        }
    }
}
