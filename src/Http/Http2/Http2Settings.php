<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/**
 * What a server-side HTTP/2 session announces and the bounds it holds peers to. The defaults are
 * documented, with the attack each bound answers, in docs/http2.md.
 */
final class Http2Settings
{
    public function __construct(
        /** SETTINGS_MAX_CONCURRENT_STREAMS: streams beyond it are refused (RST_STREAM REFUSED_STREAM). */
        public readonly int $maxConcurrentStreams = 100,
        /** SETTINGS_INITIAL_WINDOW_SIZE: what one stream's request body may hold unread. */
        public readonly int $initialWindowSize = 65535,
        /** The connection's receive window, raised from the protocol's 65,535 at the start. */
        public readonly int $connectionWindowSize = 1048576,
        /** SETTINGS_MAX_FRAME_SIZE we accept. */
        public readonly int $maxFrameSize = 16384,
        /** SETTINGS_MAX_HEADER_LIST_SIZE: a larger decoded request head is answered 431. */
        public readonly int $maxHeaderListSize = 65536,
        /** SETTINGS_HEADER_TABLE_SIZE for the peer's encoder, and our own encoder's cap. */
        public readonly int $headerTableSize = 4096,
        /** The encoded header block (HEADERS + CONTINUATION) held while it arrives (CVE-2024-27316). */
        public readonly int $maxHeaderBlockSize = 65536,
        /** CONTINUATION frames in one header block (CVE-2024-27316). */
        public readonly int $maxContinuationFrames = 32,
        /** Streams reset by the peer, or by us for its misbehaviour, beyond those answered in full (CVE-2023-44487, CVE-2025-8671). */
        public readonly int $maxResetScore = 100,
        /** Control frames we owe (PING and SETTINGS acks, RST_STREAM, WINDOW_UPDATE) left untaken by the driver (CVE-2019-9512, -9515). */
        public readonly int $maxPendingControlFrames = 1000,
        /** Frames that advance no request in a row (empty DATA, PING, SETTINGS, PRIORITY, unknown types, frames on closed streams; CVE-2019-9518). */
        public readonly int $maxUnproductiveFrames = 1000,
        /** Response bytes one stream may have queued before canSend() says wait (CVE-2019-9517). */
        public readonly int $streamOutputLimit = 262144,
        /** Response bytes all streams together may have queued before canSend() says wait. */
        public readonly int $connectionOutputLimit = 4194304,
    ) {
        if ($maxFrameSize < 16384 || $maxFrameSize > 16777215) {
            throw new \InvalidArgumentException("SETTINGS_MAX_FRAME_SIZE $maxFrameSize is outside 16384..16777215");
        }
        if ($initialWindowSize < 0 || $initialWindowSize > 0x7fffffff || $connectionWindowSize < 65535 || $connectionWindowSize > 0x7fffffff) {
            throw new \InvalidArgumentException('Window sizes must lie within 0..2^31-1 (the connection window at least 65535)');
        }
    }
}
