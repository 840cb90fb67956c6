<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * RFC 6455 frames out. A server's frames are unmasked (text(), binary(), ping(), pong(), close());
 * a client's are masked with a key of its own (frame() with $maskKey). frame() writes any frame,
 * including ones that break the protocol, for tests that need them.
 */
final class FrameEncoder
{
    /** A server's text message as one frame. */
    public static function text(string $payload): string
    {
        $length = \strlen($payload);
        if ($length < 126) {
            return "\x81" . \chr($length) . $payload;
        }

        return self::frame(Opcode::Text->value, $payload);
    }

    /** A server's binary message as one frame. */
    public static function binary(string $payload): string
    {
        return self::frame(Opcode::Binary->value, $payload);
    }

    /**
     * A server's message cut into frames of at most $fragmentBytes payload bytes (0: one frame).
     * A message of $fragmentBytes or fewer bytes is one frame; an empty one is one empty frame.
     * $rsv goes on the first frame only (RSV1, 4: a permessage-deflate message).
     */
    public static function message(bool $binary, string $payload, int $fragmentBytes = 0, ?string $maskKey = null, int $rsv = 0): string
    {
        $opcode = $binary ? Opcode::Binary->value : Opcode::Text->value;
        $length = \strlen($payload);
        if ($fragmentBytes <= 0 || $length <= $fragmentBytes) {
            return self::frame($opcode, $payload, true, $maskKey, $rsv);
        }
        $frames = '';
        for ($offset = 0; $offset < $length; $offset += $fragmentBytes) {
            $frames .= self::frame(
                $offset === 0 ? $opcode : Opcode::Continuation->value,
                \substr($payload, $offset, $fragmentBytes),
                $offset + $fragmentBytes >= $length,
                $maskKey,
                $offset === 0 ? $rsv : 0,
            );
        }

        return $frames;
    }

    public static function ping(string $payload = ''): string
    {
        return self::frame(Opcode::Ping->value, self::control($payload));
    }

    public static function pong(string $payload = ''): string
    {
        return self::frame(Opcode::Pong->value, self::control($payload));
    }

    /**
     * A close frame: no payload for CloseCode::NoStatus (1005), else the code and the reason,
     * cut to the 123 bytes a close frame leaves it (on a UTF-8 boundary).
     */
    public static function close(int|CloseCode $code = CloseCode::Normal, string $reason = '', ?string $maskKey = null): string
    {
        $code = $code instanceof CloseCode ? $code->value : $code;
        if ($code === CloseCode::NoStatus->value) {
            return self::frame(Opcode::Close->value, '', true, $maskKey);
        }

        return self::frame(Opcode::Close->value, \pack('n', $code) . self::truncateReason($reason), true, $maskKey);
    }

    /**
     * Any frame. $maskKey (4 bytes) masks the payload, as a client must; $rsv sets the reserved
     * bits (0–7); $lengthForm forces the length's form (7, 16 or 64 bits) even when a shorter one fits.
     */
    public static function frame(int $opcode, string $payload, bool $fin = true, ?string $maskKey = null, int $rsv = 0, ?int $lengthForm = null): string
    {
        $length = \strlen($payload);
        $first = \chr(($fin ? 0x80 : 0) | (($rsv & 7) << 4) | ($opcode & 0x0F));
        $maskBit = $maskKey === null ? 0 : 0x80;
        $form = $lengthForm ?? ($length < 126 ? 7 : ($length < 65536 ? 16 : 64));
        $head = match ($form) {
            7 => $first . \chr($maskBit | $length),
            16 => $first . \chr($maskBit | 126) . \pack('n', $length),
            default => $first . \chr($maskBit | 127) . \pack('J', $length),
        };
        if ($maskKey === null) {
            return $head . $payload;
        }
        if (\strlen($maskKey) !== 4) {
            throw new \InvalidArgumentException('A mask key is 4 bytes');
        }

        return $head . $maskKey . ($payload ^ \str_repeat($maskKey, ($length >> 2) + 1));
    }

    private static function control(string $payload): string
    {
        if (\strlen($payload) > 125) {
            throw new \InvalidArgumentException(\sprintf('A control frame carries at most 125 bytes, not %d', \strlen($payload)));
        }

        return $payload;
    }

    /** $reason cut to 123 bytes without splitting a UTF-8 sequence. */
    private static function truncateReason(string $reason): string
    {
        if (\strlen($reason) <= 123) {
            return $reason;
        }
        $cut = 123;
        while ($cut > 0 && (\ord($reason[$cut]) & 0xC0) === 0x80) {
            --$cut;
        }

        return \substr($reason, 0, $cut);
    }
}
