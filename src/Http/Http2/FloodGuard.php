<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/**
 * The counters that bound what a peer can make a session do without getting anything done
 * (docs/http2.md, "The attacks"): resets beyond streams answered in full (Rapid Reset,
 * MadeYouReset, refused-stream floods), control frames owed to a peer that does not read (PING,
 * SETTINGS and reset floods), and frames in a row that move no request forward (empty frames,
 * dribbled windows). Each bound passed is a connection error ENHANCE_YOUR_CALM. Counts only, no clock.
 *
 * @internal
 */
final class FloodGuard
{
    private int $resetScore = 0;
    private int $pendingControlFrames = 0;
    private int $unproductiveFrames = 0;

    public function __construct(private readonly Http2Settings $settings)
    {
    }

    /** A stream reset by the peer, or by us because of the peer, or refused. */
    public function reset(string $what): void
    {
        if (++$this->resetScore > $this->settings->maxResetScore) {
            throw new Http2ConnectionError(ErrorCode::EnhanceYourCalm, "Too many streams reset ({$this->resetScore} beyond those answered; last: $what)");
        }
    }

    /** A response sent in full: it earns back one reset, and counts as progress. */
    public function answered(): void
    {
        if ($this->resetScore > 0) {
            $this->resetScore--;
        }
        $this->unproductiveFrames = 0;
    }

    /** A stream opened. */
    public function progress(): void
    {
        $this->unproductiveFrames = 0;
    }

    /** A control frame queued for the peer (an ack, RST_STREAM). */
    public function control(): void
    {
        if (++$this->pendingControlFrames > $this->settings->maxPendingControlFrames) {
            throw new Http2ConnectionError(ErrorCode::EnhanceYourCalm, "More than {$this->settings->maxPendingControlFrames} control frames owed to a peer that does not read");
        }
    }

    /** The driver took the output: the control frames owed are on their way. */
    public function outputTaken(): void
    {
        $this->pendingControlFrames = 0;
    }

    public function unproductive(string $what): void
    {
        if (++$this->unproductiveFrames > $this->settings->maxUnproductiveFrames) {
            throw new Http2ConnectionError(ErrorCode::EnhanceYourCalm, "More than {$this->settings->maxUnproductiveFrames} frames without progress (last: $what)");
        }
    }
}
