<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/** The root of the HTTP/2 layer's exceptions: a peer broke the protocol. */
class Http2Exception extends \RuntimeException
{
}
