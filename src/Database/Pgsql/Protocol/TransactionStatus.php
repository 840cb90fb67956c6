<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/** The status byte of ReadyForQuery. */
enum TransactionStatus: string
{
    case Idle = 'I';
    case InTransaction = 'T';
    case Failed = 'E';

    /** Inside a transaction block, healthy or failed. */
    public function inTransaction(): bool
    {
        return $this !== self::Idle;
    }
}
