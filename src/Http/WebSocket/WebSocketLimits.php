<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * What a peer may send before the connection fails with 1009 (Message Too Big), and how this side
 * cuts its own messages.
 *
 * - maxMessageBytes: a whole message, all fragments together (default 1 MiB).
 * - maxFrameBytes: one frame's payload (default 1 MiB); a frame header announcing more fails at once,
 *   before its payload is read.
 * - maxFragments: frames of one fragmented message (default 4,096: a 1 MiB message cut into 256-byte
 *   fragments); control frames between them do not count.
 * - outgoingFragmentBytes: messages this side sends are cut into frames of at most this many payload
 *   bytes; 0 (the default) sends every message as one frame.
 */
final class WebSocketLimits
{
    public function __construct(
        public readonly int $maxMessageBytes = 1_048_576,
        public readonly int $maxFrameBytes = 1_048_576,
        public readonly int $maxFragments = 4096,
        public readonly int $outgoingFragmentBytes = 0,
    ) {
        if ($maxMessageBytes < 125 || $maxFrameBytes < 125 || $maxFragments < 1 || $outgoingFragmentBytes < 0) {
            throw new \InvalidArgumentException(\sprintf(
                'WebSocket limits out of range: message %d and frame %d bytes (at least 125), %d fragments (at least 1), outgoing fragments of %d bytes (0 or more)',
                $maxMessageBytes,
                $maxFrameBytes,
                $maxFragments,
                $outgoingFragmentBytes,
            ));
        }
    }

    /** The Pusher protocol endpoint's limits: messages of at most 10,000 bytes, 100 fragments. */
    public static function forPusher(): self
    {
        return new self(10_000, 10_000, 100);
    }
}
