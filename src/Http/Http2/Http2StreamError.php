<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/** A stream error (RFC 9113 §5.4.2): the stream ends with RST_STREAM carrying $code; the connection lives on. */
final class Http2StreamError extends Http2Exception
{
    public function __construct(public readonly int $streamId, public readonly ErrorCode $errorCode, string $reason)
    {
        parent::__construct($reason);
    }
}
