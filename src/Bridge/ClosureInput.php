<?php

declare(strict_types=1);

namespace Spindle\Bridge;

/** What an application closure takes, as its first parameter declares it. */
enum ClosureInput
{
    /** No parameter: it gets nothing. */
    case Nothing;
    /** Spindle's lean Http\Request. */
    case Request;
    /** A PSR-7 ServerRequestInterface (any other declared type, or none). */
    case Psr7;
}
