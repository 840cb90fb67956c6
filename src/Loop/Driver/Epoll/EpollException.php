<?php

declare(strict_types=1);

namespace Spindle\Loop\Driver\Epoll;

/** epoll cannot be used here (no FFI, not Linux, no libc symbols) or one of its calls failed. */
final class EpollException extends \RuntimeException
{
}
