<?php

declare(strict_types=1);

namespace Spindle\Loop;

/** A WaitQueue::wait() reached its deadline with nothing handed over (callers usually throw their own). */
final class WaitTimeout extends \RuntimeException
{
}
