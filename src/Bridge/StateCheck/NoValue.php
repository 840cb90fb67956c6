<?php

declare(strict_types=1);

namespace Spindle\Bridge\StateCheck;

/** Stands for a property without a value (uninitialized, or absent from an object) in a comparison. */
enum NoValue
{
    case Value;
}
