<?php

declare(strict_types=1);

namespace Spindle\Server;

/** @internal What one request printed so far (see PrintedOutput): appended to in place. */
final class PrintedBytes
{
    public string $bytes = '';
}
