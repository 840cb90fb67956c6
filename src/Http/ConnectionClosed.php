<?php

declare(strict_types=1);

namespace Spindle\Http;

/** The client went away (or the connection was closed) while a response was being written. */
final class ConnectionClosed extends \RuntimeException
{
}
