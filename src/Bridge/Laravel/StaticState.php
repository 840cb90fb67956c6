<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel;

use Carbon\Carbon;
use Illuminate\Support\Facades\Facade;

/**
 * The process-global (static) state that Laravel keeps for "the" application, as one app
 * instance left it: the statics of SupportStatics' table (container instance, facades,
 * Eloquent, pagination, the support statics, Livewire's and the app's), plus Carbon's locale and
 * test time, which Carbon keeps in its factory rather than in properties.
 *
 * save() reads it from the statics, load() writes it back. Model booting is part of it because
 * a model boots once per process and registers its event listeners on the dispatcher of the
 * instance that was current then: each instance boots its models on its own dispatcher.
 */
final class StaticState
{
    /** @var array<int, mixed> the table's values, as SupportStatics::capture() reads them */
    private array $values;
    private string $carbonLocale = 'en';
    private mixed $testNow = null;

    /** @param SupportStatics $statics the table of statics swapped with the instance (SupportStatics::forApp()) */
    public function __construct(public readonly SupportStatics $statics)
    {
        $this->values = $statics->capture();
    }

    /** Reads the statics as they are now (after this instance ran). */
    public function save(): void
    {
        $this->values = $this->statics->capture();
        $this->carbonLocale = Carbon::getLocale();
        $this->testNow = Carbon::getTestNow();
    }

    /** Writes this instance's state into the statics. */
    public function load(): void
    {
        $this->statics->restore($this->values);
        if (Carbon::getLocale() !== $this->carbonLocale) {
            Carbon::setLocale($this->carbonLocale);
        }
        if ($this->testNow !== null || Carbon::hasTestNow()) {
            Carbon::setTestNow($this->testNow);
        }
    }

    /**
     * Writes the statics as a process that never booted Laravel has them (the table's declared
     * defaults), with Carbon at $carbonLocale: a new instance boots from there, whatever the
     * running requests changed.
     */
    public static function loadPristine(SupportStatics $statics, string $carbonLocale): void
    {
        $statics->restoreDefaults();
        if (Carbon::getLocale() !== $carbonLocale) {
            Carbon::setLocale($carbonLocale);
        }
        if (Carbon::hasTestNow()) {
            Carbon::setTestNow();
        }
    }

    // The facades' resolved instances as the resetters' tests read them; the swap between
    // instances goes through the table.

    /** @return array<string, mixed> */
    public static function facadeInstances(): array
    {
        return (self::facadeReader())();
    }

    /** @return \Closure(): array<string, mixed> */
    private static function facadeReader(): \Closure
    {
        return self::bound(\Closure::bind(static fn (): array => Facade::$resolvedInstance, null, Facade::class));
    }

    /**
     * The result of \\Closure::bind(), which is null only when the scope is not a class.
     *
     * @template T of \Closure
     *
     * @param T|null $bound
     *
     * @return T
     */
    private static function bound(?\Closure $bound): \Closure
    {
        \assert($bound !== null);

        return $bound;
    }
}
