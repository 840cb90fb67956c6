<?php

declare(strict_types=1);

namespace Spindle\Server\Peers;

/** The relay's stream carried something that is no frame: the link is dropped. */
final class RelayException extends \RuntimeException
{
}
