<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/** A connection error (RFC 9113 §5.4.1): the connection ends with GOAWAY carrying $code. */
final class Http2ConnectionError extends Http2Exception
{
    public function __construct(public readonly ErrorCode $errorCode, string $reason)
    {
        parent::__construct($reason);
    }
}
