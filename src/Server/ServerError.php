<?php

declare(strict_types=1);

namespace Spindle\Server;

/** Misuse of the server: a bad option, an application file that cannot be served. */
final class ServerError extends \Error
{
}
