<?php

declare(strict_types=1);

namespace Spindle\Redis\Protocol;

/** A RESP3 verbatim string (`=`): a three-letter format (`txt`, `mkd`) and the text. */
final class Verbatim
{
    public function __construct(public readonly string $format, public readonly string $text)
    {
    }
}
