<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

final class ReadyForQuery
{
    public function __construct(public readonly TransactionStatus $status)
    {
    }
}
