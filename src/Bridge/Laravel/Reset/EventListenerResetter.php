<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Events\Dispatcher;
use Illuminate\Foundation\Application;

/**
 * Removes event listeners added during a request (`Event::listen()`, `DB::listen()` in a
 * controller), keeping those registered at boot. Eloquent model listeners (`eloquent.*`,
 * observers) stay: a model registers them once, when it first boots, which may be during a request.
 */
final class EventListenerResetter implements Resetter
{
    /** @var array<string, mixed> */
    private readonly array $listeners;
    /** @var array<string, mixed> */
    private readonly array $wildcards;
    private readonly ?Dispatcher $events;
    /** @var \Closure(Dispatcher): array{array<string, mixed>, array<string, mixed>} bound once, not per request */
    private readonly \Closure $read;

    public function __construct(Application $app)
    {
        $events = $app->make('events');
        $this->events = $events instanceof Dispatcher ? $events : null;
        $read = \Closure::bind(static fn (Dispatcher $events): array => [$events->listeners, $events->wildcards], null, Dispatcher::class);
        \assert($read !== null);
        $this->read = $read;
        [$this->listeners, $this->wildcards] = $this->events === null ? [[], []] : $read($this->events);
    }

    public function reset(): void
    {
        if ($this->events === null) {
            return;
        }
        [$listeners, $wildcards] = ($this->read)($this->events);
        if ($listeners === $this->listeners && $wildcards === $this->wildcards) {
            return;
        }
        $keep = $this->listeners;
        foreach ($listeners as $event => $list) {
            if (\str_starts_with((string) $event, 'eloquent.')) {
                $keep[$event] = $list;
            }
        }
        $keepWildcards = $this->wildcards;
        foreach ($wildcards as $event => $list) {
            if (\str_starts_with((string) $event, 'eloquent.')) {
                $keepWildcards[$event] = $list;
            }
        }
        (function () use ($keep, $keepWildcards): void {
            /** @var Dispatcher $this */
            $this->listeners = $keep;
            $this->wildcards = $keepWildcards;
            $this->wildcardsCache = [];
        })->call($this->events);
    }
}
