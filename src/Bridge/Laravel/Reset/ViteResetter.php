<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;

/**
 * Puts the `Vite` singleton (Laravel 9 and later) back as boot left it: a request's CSP nonce
 * (`Vite::useCspNonce()`), preloaded assets and any option it changed must not reach the next
 * request; options set while booting (`Vite::prefetch()` in a service provider) stay. A Vite
 * first resolved during a request is forgotten, so the next request resolves a fresh one.
 */
final class ViteResetter implements Resetter
{
    private const VITE = 'Illuminate\Foundation\Vite';

    private readonly ?object $vite;
    /** @var array<string, mixed> */
    private readonly array $booted;
    /** @var (\Closure(object, array<string, mixed>): void)|null bound once: a Closure::call() per request costs about seven times as much */
    private readonly ?\Closure $write;

    public function __construct(private readonly Application $app)
    {
        // (Loads the class where this Laravel has it: reset() then asks without the autoloader,
        // whose search for a missing class costs file lookups on every request.)
        $vite = \class_exists(self::VITE) && $app->resolved(self::VITE) ? $app->make(self::VITE) : null;
        $this->vite = \is_object($vite) ? $vite : null;
        $this->booted = $this->vite !== null ? self::read($this->vite) : [];
        $this->write = $this->vite === null ? null : \Closure::bind(static function (object $vite, array $booted): void {
            foreach ($booted as $name => $value) {
                $vite->{$name} = $value;
            }
        }, null, $this->vite::class);
    }

    public function reset(): void
    {
        if (!\class_exists(self::VITE, false) || !$this->app->resolved(self::VITE)) {
            return;
        }
        if ($this->vite === null) {
            $this->app->forgetInstance(self::VITE);

            return;
        }
        $vite = $this->app->make(self::VITE);
        if ($vite !== $this->vite) {
            $this->app->instance(self::VITE, $this->vite);
        }
        if ($this->write !== null) {
            ($this->write)($this->vite, $this->booted);
        }
    }

    /** @return array<string, mixed> the object's properties (protected included) */
    private static function read(object $vite): array
    {
        return (fn (): array => \get_object_vars($this))->call($vite);
    }
}
