<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/**
 * The header block an HTTP/2 peer is sending (RFC 9113 §4.3): a HEADERS frame and the
 * CONTINUATION frames that follow it on the same stream, until END_HEADERS. Its size is bounded
 * by Http2Settings::$maxHeaderBlockSize and its frames by $maxContinuationFrames (the 2024
 * CONTINUATION flood), before HPACK decodes any of it. Http2Session decodes the whole block.
 */
final class HeaderBlock
{
    /** The stream the block is on (0: no block is open). */
    private int $streamId = 0;
    private string $bytes = '';
    private int $continuations = 0;
    private bool $endStream = false;
    private bool $selfDependent = false;

    public function __construct(
        private readonly Http2Settings $settings,
        private readonly FloodGuard $guard,
    ) {
    }

    /** Whether a block is open: until it ends, the peer may send nothing but its CONTINUATIONs. */
    public function isOpen(): bool
    {
        return $this->streamId !== 0;
    }

    /**
     * A HEADERS frame opens a block on $streamId ($selfDependent: its priority names the stream
     * itself). Returns whether the block is whole (END_HEADERS): then take() it.
     *
     * @throws Http2ConnectionError past the block's size bound
     */
    public function begin(int $flags, int $streamId, string $fragment, bool $selfDependent): bool
    {
        $this->streamId = $streamId;
        $this->bytes = $fragment;
        $this->continuations = 0;
        $this->endStream = ($flags & FrameParser::FLAG_END_STREAM) !== 0;
        $this->selfDependent = $selfDependent;
        if (\strlen($fragment) > $this->settings->maxHeaderBlockSize) {
            throw new Http2ConnectionError(ErrorCode::EnhanceYourCalm, "Header block larger than {$this->settings->maxHeaderBlockSize} bytes");
        }
        if ($flags & FrameParser::FLAG_END_HEADERS) {
            return true;
        }
        if ($fragment === '') {
            $this->guard->unproductive('empty HEADERS');
        }

        return false;
    }

    /**
     * A CONTINUATION frame adds to the open block. Returns whether the block is whole.
     *
     * @throws Http2ConnectionError without a block open on $streamId, or past a bound
     */
    public function add(int $flags, int $streamId, string $fragment): bool
    {
        if ($this->streamId === 0 || $streamId !== $this->streamId) {
            throw new Http2ConnectionError(ErrorCode::ProtocolError, "CONTINUATION on stream $streamId without a header block open there");
        }
        if (++$this->continuations > $this->settings->maxContinuationFrames) {
            throw new Http2ConnectionError(ErrorCode::EnhanceYourCalm, "Header block in more than {$this->settings->maxContinuationFrames} CONTINUATION frames");
        }
        if (\strlen($this->bytes) + \strlen($fragment) > $this->settings->maxHeaderBlockSize) {
            throw new Http2ConnectionError(ErrorCode::EnhanceYourCalm, "Header block larger than {$this->settings->maxHeaderBlockSize} bytes");
        }
        $this->bytes .= $fragment;

        return ($flags & FrameParser::FLAG_END_HEADERS) !== 0;
    }

    /**
     * The whole block, which closes it: its stream, its bytes, whether its HEADERS ended the
     * stream, whether its priority named the stream itself.
     *
     * @return array{int, string, bool, bool}
     */
    public function take(): array
    {
        $block = [$this->streamId, $this->bytes, $this->endStream, $this->selfDependent];
        $this->streamId = 0;
        $this->bytes = '';

        return $block;
    }
}
