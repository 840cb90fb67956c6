<?php

declare(strict_types=1);

namespace Spindle\Loop;

/** Thrown into a task of Spindle\concurrently() that was still waiting when another task of its group failed. */
final class TaskCancelled extends \RuntimeException
{
}
