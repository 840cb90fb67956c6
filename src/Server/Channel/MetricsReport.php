<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

use Spindle\Metrics\Family;

/** With --metrics, after each report: the worker's whole registry, which the master sums. */
final readonly class MetricsReport implements WorkerMessage
{
    /** @param list<Family> $families */
    public function __construct(public array $families)
    {
    }

    public function type(): MessageType
    {
        return MessageType::Metrics;
    }
}
