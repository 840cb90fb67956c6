<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;

/**
 * Drops `app()->terminating()` callbacks added during a request once the request has
 * terminated: Laravel keeps them in the application, so they would run again after every
 * later request on the instance.
 */
final class TerminatingCallbackResetter implements Resetter
{
    /** @var array<mixed> */
    private readonly array $callbacks;
    /** @var \Closure(Application, array<mixed>): void bound once: a Closure::call() per request costs about seven times as much */
    private readonly \Closure $write;

    public function __construct(private readonly Application $app)
    {
        $this->callbacks = self::read($app);
        $write = \Closure::bind(static function (Application $app, array $callbacks): void {
            $app->terminatingCallbacks = $callbacks;
        }, null, Application::class);
        \assert($write !== null);
        $this->write = $write;
    }

    public function reset(): void
    {
        ($this->write)($this->app, $this->callbacks);
    }

    /** @return array<mixed> */
    private static function read(Application $app): array
    {
        return (function (): array {
            /** @var Application $this */
            return $this->terminatingCallbacks;
        })->call($app);
    }
}
