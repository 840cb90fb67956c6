<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/** The backend's process id and secret key: what a CancelRequest must quote. */
final class BackendKeyData
{
    public function __construct(public readonly int $processId, public readonly int $secretKey)
    {
    }
}
