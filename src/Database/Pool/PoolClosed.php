<?php

declare(strict_types=1);

namespace Spindle\Database\Pool;

/** The pool was closed: it hands out no more connections. */
final class PoolClosed extends \RuntimeException
{
}
