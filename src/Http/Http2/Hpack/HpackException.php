<?php

declare(strict_types=1);

namespace Spindle\Http\Http2\Hpack;

use Spindle\Http\Http2\Http2Exception;

/** A header block that cannot be decoded: a connection error of type COMPRESSION_ERROR (RFC 9113 §4.3). */
final class HpackException extends Http2Exception
{
}
