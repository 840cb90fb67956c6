<?php

declare(strict_types=1);

namespace Spindle\Metrics;

/** A metric used wrongly: an invalid name, a label count that does not match, a name taken by another type. */
final class MetricsError extends \LogicException
{
}
