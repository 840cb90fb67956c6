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

    public function __construct(Application $app)
    {
        $config = $app->make('config');
        $this->config = $config instanceof Repository ? $config : null;
        $this->snapshot = $this->config?->all() ?? [];
    }

    public function reset(): void
    {
        if ($this->config === null) {
            return;
        }
        $snapshot = $this->snapshot;
        (function () use ($snapshot): void {
            /** @var Repository $this */
            $this->items = $snapshot;
        })->call($this->config);
    }
}
