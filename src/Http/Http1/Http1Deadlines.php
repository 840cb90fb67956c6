<?php

declare(strict_types=1);

namespace Spindle\Http\Http1;

use Spindle\Http\Clock;
use Spindle\Http\Expiring;
use Spindle\Http\HttpLimits;
use Spindle\Http\TimeoutWheel;

/**
 * The deadlines of one HTTP/1.1 connection, and the one place that knows them: when it was
 * accepted, last read, began its head, and when a draining worker's grace ends; which timeout
 * comes next in the connection's state (due()), which expired (expired()), and since when the
 * connection has waited for a whole request (waitingSince(), for the cap on connections). It
 * keeps the connection in the worker's TimeoutWheel by its next deadline (checkBy()).
 *
 * The connection tells it what it alone knows (a request runs or is queued, how many it served)
 * and enforces what expired (a 408, or closing): Http1Connection::expireTimeouts().
 */
final class Http1Deadlines
{
    private readonly float $acceptedAt;
    private float $lastReadAt;
    private float $headStartedAt = 0.0;
    /** Draining (see drain()): until when an idle connection stays open; INF while not draining. */
    private float $drainGraceEnds = \INF;
    /** When the timeout wheel checks the connection next (INF: it is in no slot). */
    private float $checkAt = \INF;

    public function __construct(
        private readonly Expiring $connection,
        private readonly HttpLimits $limits,
        private readonly Clock $clock,
        private readonly TimeoutWheel $wheel,
        private readonly RequestAssembler $requests,
        private readonly ResponseWriter $writer,
    ) {
        $this->lastReadAt = $this->acceptedAt = $clock->now;
    }

    /**
     * Bytes were read: the clock moves on here, where the worker learns of every new request (and
     * at each response's end: keepAliveFrom()), as the server's timer runs only at deadlines.
     * microtime() costs ~30 ns.
     */
    public function read(): void
    {
        $now = $this->clock->tick();
        if ($this->requests->isIdle()) {
            $this->headStartedAt = $now;
        }
        $this->lastReadAt = $now;
    }

    /**
     * A head is still arriving after a read: its timeout may end before the keep-alive one would
     * have. (A head that came whole in one read needs nothing: the common case schedules nothing.)
     */
    public function headArriving(): void
    {
        $this->checkBy($this->headStartedAt + $this->limits->headerTimeout);
    }

    /** A response ended with nothing left to write: the keep-alive timeout counts from now. */
    public function keepAliveFrom(): void
    {
        $this->writer->lastWriteAt = $this->clock->tick();
        $this->checkBy($this->writer->lastWriteAt + $this->limits->keepAliveTimeout);
    }

    /** The writer holds bytes the client has not taken: they must go within --body-timeout. */
    public function writeWaiting(): void
    {
        $this->checkBy($this->writer->lastWriteAt + $this->limits->bodyTimeout);
    }

    /**
     * A body that arrived (or waited for its "100 Continue") while the requests before it ran:
     * its timeouts stood still meanwhile, and count from now.
     */
    public function bodyResumed(): void
    {
        $this->lastReadAt = $this->requests->bodyStartedAt = $this->clock->now;
    }

    /** The worker drains: an idle connection gets DRAIN_GRACE seconds for a request on its way. */
    public function drain(float $grace): void
    {
        $this->drainGraceEnds = $this->clock->tick() + $grace;
        $this->checkBy($this->drainGraceEnds);
    }

    /**
     * The timeout that comes next in the connection's present state, and when ($busy: a request
     * runs or waits its turn; $served: requests it answered so far).
     *
     * @return array{float, Http1Timeout}
     */
    public function due(bool $busy, int $served): array
    {
        $limits = $this->limits;
        if ($this->writer->buffered !== 0) {
            return [$this->writer->lastWriteAt + $limits->bodyTimeout, Http1Timeout::WriteStalled];
        }
        if ($busy) {
            // The request's own time limit is the RequestRunner's (see Http1Connection::timeOut()).
            return [\INF, Http1Timeout::None];
        }
        if ($this->requests->isReadingBody()) {
            $stalled = $this->lastReadAt + $limits->bodyTimeout;
            $slow = $this->bodyRateDeadline();

            return $slow < $stalled ? [$slow, Http1Timeout::BodyTooSlow] : [$stalled, Http1Timeout::BodyStalled];
        }
        if ($this->requests->isReadingHead()) {
            return [$this->headStartedAt + $limits->headerTimeout, Http1Timeout::HeadTooSlow];
        }
        // Idle: a draining worker's grace, and the first request's or the keep-alive timeout.
        $due = $served === 0
            ? [$this->lastReadAt + $limits->headerTimeout, Http1Timeout::NoFirstRequest]
            : [\max($this->lastReadAt, $this->writer->lastWriteAt) + $limits->keepAliveTimeout, Http1Timeout::KeepAlive];

        return $this->drainGraceEnds < $due[0] ? [$this->drainGraceEnds, Http1Timeout::DrainGrace] : $due;
    }

    /**
     * The wheel's check came: the timeout due() names if it expired by $now (None otherwise). The
     * caller enforces it, then schedules the next check (checkBy()).
     */
    public function expired(float $now, bool $busy, int $served): Http1Timeout
    {
        $this->checkAt = \INF;
        [$at, $timeout] = $this->due($busy, $served);
        // A deadline is past once the time since its start is over the limit; a drain's grace once reached.
        if ($timeout === Http1Timeout::None || ($timeout === Http1Timeout::DrainGrace ? $now < $at : $now <= $at)) {
            return Http1Timeout::None;
        }

        return $timeout;
    }

    /**
     * Since when the connection has waited for a whole request, once it has none queued or
     * running and nothing left to write (see Http1Connection::waitingSince()).
     */
    public function waitingSince(int $served): ?float
    {
        if ($this->requests->isReadingBody()) {
            $rate = $this->limits->bodyMinRate;
            if ($rate <= 0) {
                return null;
            }
            $behind = $this->requests->bodyStartedAt + $this->requests->bodyReceived / $rate;

            return $behind <= $this->clock->now ? $behind : null;
        }
        if ($this->requests->isReadingHead()) {
            return $this->headStartedAt;
        }
        if (!$this->requests->isIdle()) {
            return null;
        }

        return $served === 0 ? $this->acceptedAt : \max($this->lastReadAt, $this->writer->lastWriteAt);
    }

    /**
     * Makes sure the timeout wheel checks the connection by $deadline. Deadlines that move later
     * cost only this comparison: the earlier check finds nothing expired and moves the connection on.
     */
    public function checkBy(float $deadline): void
    {
        if ($deadline < $this->checkAt) {
            $this->checkAt = $deadline;
            $this->wheel->schedule($this->connection, $deadline);
        }
    }

    /** The connection is done with its socket: the wheel forgets it, and never takes it again. */
    public function forget(): void
    {
        $this->checkAt = -\INF;
        $this->wheel->forget($this->connection);
    }

    /**
     * When the body in progress falls behind the minimum rate: its grace from its start, plus a
     * second for every bodyMinRate bytes that came (INF without a minimum rate).
     */
    private function bodyRateDeadline(): float
    {
        $limits = $this->limits;
        if ($limits->bodyMinRate <= 0) {
            return \INF;
        }

        return $this->requests->bodyStartedAt + $limits->bodyRateGrace + $this->requests->bodyReceived / $limits->bodyMinRate;
    }
}
