<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Foundation\Application;

/**
 * One of the app's own resetters, listed in `config('spindle.resetters')`: an invokable class,
 * built once per app instance through its container, called with the app after every request.
 */
final class AppResetter implements Resetter
{
    /** @param class-string $class */
    private function __construct(
        public readonly string $class,
        private readonly \Closure $invoke,
        private readonly Application $app,
    ) {
    }

    /**
     * The resetters `spindle.resetters` lists, in order.
     *
     * @return list<self>
     *
     * @throws \InvalidArgumentException when an entry is not the name of an invokable class
     */
    public static function fromConfig(Application $app): array
    {
        $config = $app->make('config');
        $classes = $config instanceof \Illuminate\Contracts\Config\Repository ? $config->get('spindle.resetters', []) : [];
        if (!\is_array($classes) || !\array_is_list($classes)) {
            throw new \InvalidArgumentException(\sprintf('spindle.resetters must be a list of invokable class names, got %s', \get_debug_type($classes)));
        }
        $resetters = [];
        foreach ($classes as $class) {
            if (!\is_string($class) || !\class_exists($class) || !\method_exists($class, '__invoke')) {
                throw new \InvalidArgumentException(\sprintf('spindle.resetters: %s is not an invokable class', \is_string($class) ? $class : \get_debug_type($class)));
            }
            $resetter = $app->make($class);
            \assert(\is_object($resetter) && \is_callable($resetter));
            $resetters[] = new self($class, $resetter(...), $app);
        }

        return $resetters;
    }

    public function reset(): void
    {
        ($this->invoke)($this->app);
    }
}
