<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

/** The kinds of worker -> master messages; the value is the line's "type" field. */
enum MessageType: string
{
    case Ready = 'ready';
    case Report = 'report';
    case Retire = 'retire';
    case BootError = 'boot-error';
    case Exiting = 'exiting';
    case Metrics = 'metrics';
}
