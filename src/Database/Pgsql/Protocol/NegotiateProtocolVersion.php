<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

final class NegotiateProtocolVersion
{
    /** @param list<string> $unrecognizedOptions */
    public function __construct(public readonly int $newestMinor, public readonly array $unrecognizedOptions)
    {
    }
}
