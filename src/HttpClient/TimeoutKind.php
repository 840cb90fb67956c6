<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

enum TimeoutKind: string
{
    case Connect = 'connect';
    case Idle = 'idle';
    case Total = 'total';
}
