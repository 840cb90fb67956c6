<?php

declare(strict_types=1);

namespace Spindle\Bridge\Laravel\HttpClient;

use Illuminate\Http\Client\Factory;
use Illuminate\Http\Client\PendingRequest;

/** Laravel's HTTP client factory, whose requests go through Spindle's Guzzle handler. */
final class SpindleFactory extends Factory
{
    /** @return PendingRequest */
    protected function newPendingRequest()
    {
        return new SpindlePendingRequest($this);
    }
}
