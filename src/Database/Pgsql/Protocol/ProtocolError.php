<?php

declare(strict_types=1);

namespace Spindle\Database\Pgsql\Protocol;

/** The server sent bytes that are not protocol 3.0 (or not what the conversation allows). */
final class ProtocolError extends \RuntimeException
{
}
