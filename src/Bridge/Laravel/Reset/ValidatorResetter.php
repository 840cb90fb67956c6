<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;
use Illuminate\Validation\Factory;

/**
 * Removes validation rules, messages and replacers that a request added (`Validator::extend()`
 * in a controller). Those added at boot stay. A validator factory first made during a request
 * is forgotten instead, and made again (with its resolving callbacks) when next needed.
 */
final class ValidatorResetter implements Resetter
{
    public const PROPERTIES = ['extensions', 'implicitExtensions', 'dependentExtensions', 'replacers', 'fallbackMessages'];

    /** @var array<string, mixed>|null */
    private readonly ?array $snapshot;
    /** @var \Closure(Factory): array<string, mixed> bound once, not per request */
    private readonly \Closure $read;
    /** @var BootedService<Factory> */
    private readonly BootedService $validator;

    public function __construct(private readonly Application $app)
    {
        $read = \Closure::bind(static function (Factory $factory): array {
            $values = [];
            foreach (ValidatorResetter::PROPERTIES as $property) {
                $values[$property] = $factory->{$property};
            }

            return $values;
        }, null, Factory::class);
        \assert($read !== null);
        $this->read = $read;
        $this->validator = BootedService::of($app, 'validator', Factory::class);
        $factory = $this->validator->current();
        $this->snapshot = $factory === null ? null : $read($factory);
    }

    public function reset(): void
    {
        if (!$this->validator->isResolved()) {
            return;
        }
        if ($this->snapshot === null) {
            $this->app->forgetInstance('validator');

            return;
        }
        $factory = $this->validator->current();
        if ($factory === null || ($this->read)($factory) === $this->snapshot) {
            return;
        }
        $snapshot = $this->snapshot;
        (function () use ($snapshot): void {
            foreach ($snapshot as $property => $value) {
                $this->{$property} = $value;
            }
        })->call($factory);
    }
}
