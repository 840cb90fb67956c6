<?php

declare(strict_types=1);

namespace Spindle\Server\Peers;

/** Names of peer processes: the host, the pid and 8 random bytes, so that no two processes of any host or generation share one. */
final class Origin
{
    public static function make(): string
    {
        $host = \preg_replace('/[^A-Za-z0-9.-]/', '', (string) \gethostname()) ?: 'host';

        return \sprintf('%s/%d/%s', \substr($host, 0, 64), \getmypid() ?: 0, \bin2hex(\random_bytes(8)));
    }
}
