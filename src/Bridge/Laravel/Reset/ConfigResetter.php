<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\Reset;

use Illuminate\Config\Repository;
use Illuminate\Foundation\Application;

/** Restores the configuration as it was after boot: `config([...])` in a request lasts for that request. */
final class ConfigResetter implements Resetter
{
    /** @var array<mixed> */
    private readonly array $snapshot;

    private readonly ?Repository $config;
    /** @var \Closure(Repository, array<mixed>): void bound once: a Closure::call() per request costs about seven times as much */
    private readonly \Closure $write;

    public function __construct(Application $app)
    {
        $config = $app->make('config');
        $this->config = $config instanceof Repository ? $config : null;
        $this->snapshot = $this->config?->all() ?? [];
        $write = \Closure::bind(static function (Repository $config, array $items): void {
            $config->items = $items;
        }, null, Repository::class);
        \assert($write !== null);
        $this->write = $write;
    }

    public function reset(): void
    {
        if ($this->config === null) {
            return;
        }
        ($this->write)($this->config, $this->snapshot);
    }
}
