<?php

declare(strict_types=1);

namespace Spindle\Database\Pdo;

/** Which kind of placeholders an SQL text uses. */
enum PlaceholderStyle
{
    case None;
    case Named;
    case Positional;
    case Mixed;
}
