<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Carbon\Carbon;

/**
 * Which app instance's state the process-global statics hold now, in one worker.
 *
 * activate() is called at the start of a request and on every resume of its fiber: when the
 * statics belong to another instance, that instance's state is saved and this one's loaded;
 * when they are already this instance's, nothing happens (the common case).
 */
final class ProcessGlobals
{
    private ?StaticState $active = null;
    /** Carbon's locale before any instance booted. */
    private readonly string $carbonLocale;

    public function __construct()
    {
        $this->carbonLocale = Carbon::getLocale();
    }

    public function activate(StaticState $state): void
    {
        if ($this->active === $state) {
            return;
        }
        $this->active?->save();
        $state->load();
        $this->active = $state;
    }

    /**
     * Runs $boot, which sets the statics for a new app instance, keeping the state of the
     * instance that was active; the new instance boots from pristine statics (never from what a
     * running request left in them, such as its Carbon locale), and its state is read right after.
     *
     * @param \Closure(): StaticState $boot
     */
    public function boot(\Closure $boot): StaticState
    {
        $this->active?->save();
        $this->active = null;
        StaticState::loadPristine($this->carbonLocale);
        $state = $boot();
        $state->save();
        $this->active = $state;

        return $state;
    }

    public function active(): ?StaticState
    {
        return $this->active;
    }

    /** Forgets $state (an instance that is thrown away): it is never saved into again. */
    public function forget(StaticState $state): void
    {
        if ($this->active === $state) {
            $this->active = null;
        }
    }
}
