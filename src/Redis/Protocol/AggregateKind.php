<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

enum AggregateKind: string
{
    case Set = '~';
    case Push = '>';
}
