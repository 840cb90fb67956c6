<?php

declare(strict_types=1);

namespace Spindle\Bridge\StateCheck;

/** How an app of each framework resets what the state check found, worded for its warning. */
enum ResetAdvice
{
    case Laravel;
    case Symfony;

    /** For a property of a service the container kept from one request to the next. */
    public function forService(string $class): string
    {
        return match ($this) {
            self::Laravel => \sprintf('reset it after each request in an invokable class listed in config(\'spindle.resetters\') (it receives the app: $app->make(%s::class)), or make the service scoped instead of a singleton', $class),
            self::Symfony => \sprintf('implement Symfony\Contracts\Service\ResetInterface on %s (autoconfigured services are then tagged kernel.reset) and put the property back in reset()', $class),
        };
    }

    /** For a static property of one of the app's classes. */
    public function forStatic(): string
    {
        return match ($this) {
            self::Laravel => 'reset it after each request in an invokable class listed in config(\'spindle.resetters\'), or list it in config(\'spindle.statics\') to give each app instance its own',
            self::Symfony => 'reset it from the reset() of a service tagged kernel.reset (one that implements Symfony\Contracts\Service\ResetInterface)',
        };
    }
}
