<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/** HTTP/2 error codes (RFC 9113 §7). */
enum ErrorCode: int
{
    case NoError = 0x0;
    case ProtocolError = 0x1;
    case InternalError = 0x2;
    case FlowControlError = 0x3;
    case SettingsTimeout = 0x4;
    case StreamClosed = 0x5;
    case FrameSizeError = 0x6;
    case RefusedStream = 0x7;
    case Cancel = 0x8;
    case CompressionError = 0x9;
    case ConnectError = 0xa;
    case EnhanceYourCalm = 0xb;
    case InadequateSecurity = 0xc;
    case Http11Required = 0xd;

    /** Unknown codes are to be treated as INTERNAL_ERROR (§7) where they matter. */
    public static function fromWire(int $code): self
    {
        return self::tryFrom($code) ?? self::InternalError;
    }
}
