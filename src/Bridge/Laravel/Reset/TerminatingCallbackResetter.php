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

    public function __construct(private readonly Application $app)
    {
        $this->callbacks = self::read($app);
    }

    public function reset(): void
    {
        $callbacks = $this->callbacks;
        (function () use ($callbacks): void {
            /** @var Application $this */
            $this->terminatingCallbacks = $callbacks;
        })->call($this->app);
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
