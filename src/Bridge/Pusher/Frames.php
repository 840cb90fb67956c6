<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * The Pusher protocol's messages as JSON text: an `event`, its `data` (a JSON string inside the
 * JSON, as the protocol has it, except for the few events whose data is an object) and the
 * `channel` it belongs to.
 */
final class Frames
{
    private const JSON = \JSON_THROW_ON_ERROR | \JSON_UNESCAPED_SLASHES | \JSON_UNESCAPED_UNICODE;

    /** An event whose data is a string (already JSON, as broadcasts carry it) or a value to encode as one. */
    public static function event(string $event, mixed $data = null, ?string $channel = null): string
    {
        $frame = ['event' => $event];
        if ($data !== null) {
            $frame['data'] = \is_string($data) ? $data : self::json($data);
        }
        if ($channel !== null) {
            $frame['channel'] = $channel;
        }

        return self::json($frame);
    }

    /** A pusher:error; without a code (null) for errors that are not one of ErrorCode's. */
    public static function error(?ErrorCode $code, ?string $message = null): string
    {
        return self::event('pusher:error', ['code' => $code?->value, 'message' => $message ?? $code?->message() ?? 'Error']);
    }

    public static function json(mixed $value): string
    {
        return \json_encode($value, self::JSON);
    }
}
