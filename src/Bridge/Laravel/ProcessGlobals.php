<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Carbon\Carbon;
use Spindle\Loop\Loop;

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
    /** @var array<int, StaticState> the statics of boots under way, by object id */
    private array $booting = [];
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
     * A boot may wait (a provider that queries the database through Spindle's driver): meanwhile
     * other requests make their own instances' statics current, so the statics of the unfinished
     * boot are kept as a state of their own and made current again whenever the booting fiber
     * resumes.
     *
     * @param \Closure(): StaticState $boot
     * @param SupportStatics|null $statics the statics swapped per instance, set to their
     *                                     declared defaults for the new one (all() when null)
     */
    public function boot(\Closure $boot, ?SupportStatics $statics = null): StaticState
    {
        $this->active?->save();
        $statics ??= SupportStatics::all();
        StaticState::loadPristine($statics, $this->carbonLocale);
        $booting = new StaticState($statics);
        $booting->save();
        $this->active = $booting;
        $this->booting[\spl_object_id($booting)] = $booting;
        Loop::context()?->onResume(function () use ($booting): void {
            if (isset($this->booting[\spl_object_id($booting)])) {
                $this->activate($booting);
            }
        });
        try {
            $state = $boot();
        } finally {
            unset($this->booting[\spl_object_id($booting)]);
            if ($this->active === $booting) {
                $this->active = null;
            }
        }
        $state->save();
        $this->active = $state;

        return $state;
    }

    public function active(): ?StaticState
    {
        return $this->active;
    }

    /**
     * Forgets $state (an instance that is thrown away or let go): it is never saved into again,
     * and if the statics hold its values now, they go back to their declared defaults, so that no
     * static keeps the instance alive. Whatever runs next in an instance makes that one current.
     */
    public function forget(StaticState $state): void
    {
        if ($this->active === $state) {
            $this->active = null;
            StaticState::loadPristine($state->statics, $this->carbonLocale);
        }
    }
}
