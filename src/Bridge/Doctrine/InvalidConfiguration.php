<?php

declare(strict_types=1);

namespace Spindle\Bridge\Doctrine;

use Doctrine\DBAL\Driver\AbstractException;

/** A connection parameter of the wrong type; DBAL reports it as a DriverException. */
final class InvalidConfiguration extends AbstractException
{
    public static function notAStringOrNull(string $key, mixed $value): self
    {
        return new self(sprintf('The %s connection parameter must be a string or null, %s given.', $key, get_debug_type($value)));
    }

    public static function notAScalar(string $key, mixed $value): self
    {
        return new self(sprintf('The %s connection parameter must be a string or an integer, %s given.', $key, get_debug_type($value)));
    }
}
