<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/**
 * One stream's state inside Http2Session (RFC 9113 §5.1): open until both sides have ended it or
 * either reset it. Fields are public because only the session reads and writes them; per-frame
 * accessors would cost a call each on the hot path.
 *
 * @internal
 */
final class Stream
{
    /** The peer sent END_STREAM: half-closed (remote). */
    public bool $remoteEnded = false;
    /** We sent END_STREAM: half-closed (local). */
    public bool $localEnded = false;
    /** The final (non-1xx) response head was queued. */
    public bool $responded = false;
    /** The app asked to end the stream after $out (and $trailers) are sent. */
    public bool $endQueued = false;
    /** Response bytes waiting for flow-control window. */
    public string $out = '';
    /**
     * The trailer fields to send after $out, or null. Kept as fields, not as a block: HPACK blocks
     * must reach the peer in the order they were encoded, so a block is encoded when it is sent.
     *
     * @var list<array{string, string}>|null
     */
    public ?array $trailers = null;
    /** Request body bytes the peer may still send (our window for it). */
    public int $recvWindow;
    /** Request body bytes the app consumed and we have not yet returned with WINDOW_UPDATE. */
    public int $unacked = 0;
    /** content-length of the request, or -1. */
    public int $expectedLength = -1;
    public int $received = 0;
    /** Request body bytes handed to the app and not yet reported consumed. */
    public int $unread = 0;

    public function __construct(
        public readonly int $id,
        /** Response bytes we may send (the peer's window), may go negative after a SETTINGS change. */
        public int $sendWindow,
        int $recvWindow,
    ) {
        $this->recvWindow = $recvWindow;
    }
}
