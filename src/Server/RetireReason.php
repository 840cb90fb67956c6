<?php

declare(strict_types=1);

namespace Spindle\Server;

/** Why a worker asks the master to be replaced; the value is what goes on the channel. */
enum RetireReason: string
{
    case MaxRequests = 'max-requests';
    case MaxMemory = 'max-memory';
}
