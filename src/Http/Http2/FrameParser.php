<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/**
 * Splits pushed bytes into HTTP/2 frames (RFC 9113 §4.1) and checks what can be checked from a
 * frame alone: its size against SETTINGS_MAX_FRAME_SIZE, the stream id each type requires, the fixed
 * lengths of PRIORITY, RST_STREAM, SETTINGS, PING, GOAWAY and WINDOW_UPDATE, and the padding of DATA,
 * HEADERS and PUSH_PROMISE (removed before the frame is handed on). Frames of unknown types are
 * handed on too: they are ignored, except in the middle of a header block.
 *
 * A frame comes out as plain values, not an object: onFrame(type, flags, streamId, payload, length)
 * with length the frame's whole payload length, padding included (what flow control counts).
 * Failures throw Http2ConnectionError or, for the checks RFC 9113 makes stream errors, Http2StreamError.
 */
final class FrameParser
{
    public const FLAG_END_STREAM = 0x1;
    public const FLAG_ACK = 0x1;
    public const FLAG_END_HEADERS = 0x4;
    public const FLAG_PADDED = 0x8;
    public const FLAG_PRIORITY = 0x20;

    private string $buffer = '';
    /** The last HEADERS frame handed on named itself as its dependency (a stream error, RFC 9113 §5.3.1). */
    public bool $selfDependent = false;

    /** @param \Closure(int, int, int, string, int): void $onFrame */
    public function __construct(
        private readonly \Closure $onFrame,
        /** Our SETTINGS_MAX_FRAME_SIZE. */
        public int $maxFrameSize = 16384,
    ) {
    }

    public function buffered(): int
    {
        return \strlen($this->buffer);
    }

    public function push(string $bytes): void
    {
        $buffer = $this->buffer === '' ? $bytes : $this->buffer . $bytes;
        $available = \strlen($buffer);
        $offset = 0;
        try {
            while ($available - $offset >= 9) {
                // Byte arithmetic rather than unpack(): no array per frame.
                $length = (\ord($buffer[$offset]) << 16) | (\ord($buffer[$offset + 1]) << 8) | \ord($buffer[$offset + 2]);
                if ($length > $this->maxFrameSize) {
                    throw new Http2ConnectionError(
                        ErrorCode::FrameSizeError,
                        "Frame of $length bytes, larger than SETTINGS_MAX_FRAME_SIZE ({$this->maxFrameSize})",
                    );
                }
                if ($available - $offset < 9 + $length) {
                    break;
                }
                $type = \ord($buffer[$offset + 3]);
                $flags = \ord($buffer[$offset + 4]);
                $streamId = ((\ord($buffer[$offset + 5]) & 0x7f) << 24) | (\ord($buffer[$offset + 6]) << 16)
                    | (\ord($buffer[$offset + 7]) << 8) | \ord($buffer[$offset + 8]);
                $payload = $length === 0 ? '' : substr($buffer, $offset + 9, $length);
                $offset += 9 + $length;
                $this->selfDependent = false;
                if ($type <= 0x9) {
                    $payload = $this->check($type, $flags, $streamId, $payload, $length);
                }
                ($this->onFrame)($type, $flags, $streamId, $payload, $length);
            }
        } finally {
            $this->buffer = $offset === 0 ? $buffer : (string) substr($buffer, $offset);
        }
    }

    private function check(int $type, int $flags, int $streamId, string $payload, int $length): string
    {
        switch ($type) {
            case 0x0: // DATA
            case 0x1: // HEADERS
            case 0x5: // PUSH_PROMISE
                if ($streamId === 0) {
                    throw new Http2ConnectionError(ErrorCode::ProtocolError, 'DATA, HEADERS or PUSH_PROMISE on stream 0');
                }
                if ($flags & self::FLAG_PADDED) {
                    if ($length === 0) {
                        throw new Http2ConnectionError(ErrorCode::FrameSizeError, 'Padded frame without a pad length');
                    }
                    $pad = \ord($payload[0]);
                    if ($pad >= $length) {
                        throw new Http2ConnectionError(ErrorCode::ProtocolError, "Padding of $pad bytes in a frame of $length");
                    }
                    $payload = (string) substr($payload, 1, $length - 1 - $pad);
                }
                if ($type === 0x1 && $flags & self::FLAG_PRIORITY) {
                    if (\strlen($payload) < 5) {
                        throw new Http2ConnectionError(ErrorCode::FrameSizeError, 'HEADERS too short for its priority fields');
                    }
                    if ((((\ord($payload[0]) & 0x7f) << 24) | (\ord($payload[1]) << 16) | (\ord($payload[2]) << 8) | \ord($payload[3])) === $streamId) {
                        // A stream error, but the block must still be decoded: the session sees the flag.
                        $this->selfDependent = true;
                    }
                    $payload = (string) substr($payload, 5);
                }
                break;
            case 0x2: // PRIORITY
                if ($streamId === 0) {
                    throw new Http2ConnectionError(ErrorCode::ProtocolError, 'PRIORITY on stream 0');
                }
                if ($length !== 5) {
                    throw new Http2StreamError($streamId, ErrorCode::FrameSizeError, "PRIORITY of $length bytes");
                }
                if ((((\ord($payload[0]) & 0x7f) << 24) | (\ord($payload[1]) << 16) | (\ord($payload[2]) << 8) | \ord($payload[3])) === $streamId) {
                    throw new Http2StreamError($streamId, ErrorCode::ProtocolError, 'Stream depends on itself');
                }
                break;
            case 0x3: // RST_STREAM
                if ($streamId === 0) {
                    throw new Http2ConnectionError(ErrorCode::ProtocolError, 'RST_STREAM on stream 0');
                }
                if ($length !== 4) {
                    throw new Http2ConnectionError(ErrorCode::FrameSizeError, "RST_STREAM of $length bytes");
                }
                break;
            case 0x4: // SETTINGS
                if ($streamId !== 0) {
                    throw new Http2ConnectionError(ErrorCode::ProtocolError, 'SETTINGS on a stream');
                }
                if (($flags & self::FLAG_ACK) ? $length !== 0 : $length % 6 !== 0) {
                    throw new Http2ConnectionError(ErrorCode::FrameSizeError, "SETTINGS of $length bytes");
                }
                break;
            case 0x6: // PING
                if ($streamId !== 0) {
                    throw new Http2ConnectionError(ErrorCode::ProtocolError, 'PING on a stream');
                }
                if ($length !== 8) {
                    throw new Http2ConnectionError(ErrorCode::FrameSizeError, "PING of $length bytes");
                }
                break;
            case 0x7: // GOAWAY
                if ($streamId !== 0) {
                    throw new Http2ConnectionError(ErrorCode::ProtocolError, 'GOAWAY on a stream');
                }
                if ($length < 8) {
                    throw new Http2ConnectionError(ErrorCode::FrameSizeError, "GOAWAY of $length bytes");
                }
                break;
            case 0x8: // WINDOW_UPDATE
                if ($length !== 4) {
                    throw new Http2ConnectionError(ErrorCode::FrameSizeError, "WINDOW_UPDATE of $length bytes");
                }
                break;
            case 0x9: // CONTINUATION
                if ($streamId === 0) {
                    throw new Http2ConnectionError(ErrorCode::ProtocolError, 'CONTINUATION on stream 0');
                }
                break;
        }

        return $payload;
    }
}
