<?php

declare(strict_types=1);

namespace Spindle\Bridge\Doctrine;

use Doctrine\DBAL\Driver as DriverInterface;
use Doctrine\DBAL\Driver\Middleware;
use Spindle\Bridge\WorkerEnvironment;

/**
 * A DBAL middleware that puts Spindle's driver in place of DBAL's own (see NativeDrivers) when a
 * connection is made in a worker of `spindle serve`: whatever chose the driver (`driver:
 * pdo_mysql`, a `mysql://` URL, whose scheme DBAL's URL parsing lets win over any driver_class),
 * the connection then suspends only the request's fiber while MySQL works.
 *
 * It must be the first middleware DBAL applies (the innermost), so that it sees the driver itself
 * and the others (logging, profiling) wrap Spindle's. Outside a worker (console commands, other
 * servers) it changes nothing.
 */
final class DriverMiddleware implements Middleware
{
    /** @param \Closure(): bool $inWorker */
    public function __construct(
        private readonly NativeDrivers $drivers = new NativeDrivers(),
        private readonly ?\Closure $inWorker = null,
    ) {
    }

    public function wrap(DriverInterface $driver): DriverInterface
    {
        $inWorker = $this->inWorker ?? WorkerEnvironment::inWorker(...);
        if (!$inWorker()) {
            return $driver;
        }

        return $this->drivers->replacementFor($driver) ?? $driver;
    }
}
