<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/**
 * A message whose type says everything: ParseComplete, BindComplete, CloseComplete, NoData,
 * EmptyQueryResponse, PortalSuspended, CopyDone.
 */
final class Signal
{
    public function __construct(public readonly MessageType $type)
    {
    }
}
