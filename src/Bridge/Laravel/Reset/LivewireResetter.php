<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Spindle\Bridge\Laravel\SupportStatics;

/**
 * Livewire 3's own end-of-request flush (`flushState()`, its `flush-state` hooks): the assets
 * singleton forgets it rendered the scripts and styles (or the next page on the instance would
 * go without `livewire.js`), the auto-injection flags, rendered assets, redirects, pending child
 * parameters and the Blade component keys are cleared. Then the component and render stacks
 * are emptied, which a failed update would otherwise leave one level deeper.
 *
 * Made only for an app that has Livewire 3 registered (forApp()): an app without it pays nothing.
 */
final class LivewireResetter implements Resetter
{
    private const MANAGER = 'Livewire\LivewireManager';

    private function __construct(
        private readonly \Closure $flush,
        private readonly SupportStatics $stacks,
    ) {
    }

    /**
     * Whether Livewire 3 is installed and registered in $app (asks the autoloader: call it when
     * an instance boots, never per request).
     */
    public static function registeredIn(Application $app): bool
    {
        return \class_exists(self::MANAGER) && $app->bound(self::MANAGER);
    }

    /** The resetter for $app, or null when Livewire 3 is not installed or not registered in it. */
    public static function forApp(Application $app): ?self
    {
        if (!self::registeredIn($app)) {
            return null;
        }
        $manager = $app->make(self::MANAGER);
        $flush = [$manager, 'flushState'];
        if (!\is_callable($flush)) {
            return null;
        }

        return new self($flush(...), new SupportStatics(['Livewire\Mechanisms\HandleComponents\HandleComponents' => ['renderStack', 'componentStack']]));
    }

    public function reset(): void
    {
        ($this->flush)();
        $this->stacks->restoreDefaults();
    }
}
