<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/** Serializes HTTP/2 frames (RFC 9113 §6): each method returns the bytes of one frame or a header block's frames. */
final class FrameWriter
{
    public static function frame(int $type, int $flags, int $streamId, string $payload): string
    {
        return pack('NCN', (\strlen($payload) << 8) | $type, $flags, $streamId) . $payload;
    }

    public static function data(int $streamId, string $data, bool $endStream, int $padding = 0): string
    {
        if ($padding > 0) {
            return self::frame(0x0, ($endStream ? 0x1 : 0) | FrameParser::FLAG_PADDED, $streamId, \chr($padding - 1) . $data . str_repeat("\0", $padding - 1));
        }

        return self::frame(0x0, $endStream ? 0x1 : 0, $streamId, $data);
    }

    /** A HEADERS frame and as many CONTINUATION frames as $maxFrameSize requires. */
    public static function headers(int $streamId, string $block, bool $endStream, int $maxFrameSize = 16384): string
    {
        $end = $endStream ? FrameParser::FLAG_END_STREAM : 0;
        if (\strlen($block) <= $maxFrameSize) {
            return self::frame(0x1, $end | FrameParser::FLAG_END_HEADERS, $streamId, $block);
        }
        $chunks = str_split($block, max(1, $maxFrameSize));
        $last = \count($chunks) - 1;
        $out = self::frame(0x1, $end, $streamId, $chunks[0]);
        for ($i = 1; $i <= $last; $i++) {
            $out .= self::frame(0x9, $i === $last ? FrameParser::FLAG_END_HEADERS : 0, $streamId, $chunks[$i]);
        }

        return $out;
    }

    public static function continuation(int $streamId, string $fragment, bool $endHeaders): string
    {
        return self::frame(0x9, $endHeaders ? FrameParser::FLAG_END_HEADERS : 0, $streamId, $fragment);
    }

    public static function priority(int $streamId, int $dependency, int $weight, bool $exclusive = false): string
    {
        return self::frame(0x2, 0, $streamId, pack('NC', ($exclusive ? 0x80000000 : 0) | $dependency, $weight - 1));
    }

    public static function rstStream(int $streamId, ErrorCode $code): string
    {
        return self::frame(0x3, 0, $streamId, pack('N', $code->value));
    }

    /** @param array<int, int> $settings identifier => value */
    public static function settings(array $settings): string
    {
        $payload = '';
        foreach ($settings as $id => $value) {
            $payload .= pack('nN', $id, $value);
        }

        return self::frame(0x4, 0, 0, $payload);
    }

    public static function settingsAck(): string
    {
        return self::frame(0x4, FrameParser::FLAG_ACK, 0, '');
    }

    public static function pushPromise(int $streamId, int $promisedId, string $block): string
    {
        return self::frame(0x5, FrameParser::FLAG_END_HEADERS, $streamId, pack('N', $promisedId) . $block);
    }

    public static function ping(string $opaque, bool $ack): string
    {
        return self::frame(0x6, $ack ? FrameParser::FLAG_ACK : 0, 0, $opaque);
    }

    public static function goAway(int $lastStreamId, ErrorCode $code, string $debug = ''): string
    {
        return self::frame(0x7, 0, 0, pack('NN', $lastStreamId, $code->value) . $debug);
    }

    public static function windowUpdate(int $streamId, int $increment): string
    {
        return self::frame(0x8, 0, $streamId, pack('N', $increment));
    }
}
