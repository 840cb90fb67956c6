<?php

declare(strict_types=1);

namespace Spindle\Server;

use Revolt\EventLoop;
use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\ConnectionServices;
use Spindle\Http\Peer;

/**
 * Accepts connections on one listening socket and serves them until stopped.
 * stop() closes the listener, lets in-flight requests finish and closes idle connections.
 *
 * At most $maxConnections are open at once. At the cap the connection that has waited longest
 * without a whole request (one that never sent anything, one trickling its request head, one whose
 * body has fallen behind the minimum body rate, or an idle keep-alive connection: see
 * ConnectionDriver::waitingSince()) is closed to make room for a new one, so idle or slow clients cannot
 * keep real ones out; when every connection has a request in progress the server stops accepting,
 * and the connections that arrive meanwhile wait in the listening socket's
 * queue (or another worker takes them) until one closes.
 *
 * Each accepted socket gets the driver Protocols chooses; a driver that hands its socket to another
 * (an upgrade) is replaced by it here. The server's one timer runs the connections' and the
 * requests' timeouts (TimeoutWheel, RequestRunner) at the earliest deadline of either: a worker
 * with nothing to time is not woken.
 */
final class HttpServer implements ConnectionEvents
{
    private const BATCH = 4;
    private const BATCH_AT_CAP = 32;
    /** Seconds the timer fires after a deadline, so that the wheel's slot has surely come. */
    private const TIMER_SLACK = 0.001;

    private ?string $acceptId = null;
    /** The timeout timer (null: none is due), and when it fires. */
    private ?string $timerId = null;
    private float $timerAt = \INF;
    /** Inside expireTimeouts(): the earliest deadline asked for meanwhile, armed at its end. */
    private ?float $expiring = null;
    private readonly Protocols $protocols;
    /** @var array<int, ConnectionDriver> */
    private array $connections = [];
    private bool $stopping = false;
    private bool $paused = false;
    private int $accepted = 0;

    /** @param resource $listener */
    public function __construct(
        private readonly mixed $listener,
        private readonly ConnectionServices $set,
        private readonly string $localAddress,
        private readonly int $localPort,
        private readonly int $maxConnections = 512,
        ?Protocols $protocols = null,
    ) {
        $this->protocols = $protocols ?? new Protocols($set);
        $set->timeouts->wakeBy($this->wakeBy(...));
        $set->requests->wakeBy($this->wakeBy(...));
    }

    public function start(): void
    {
        $this->acceptId = EventLoop::onReadable($this->listener, $this->accept(...));
    }

    public function connectionCount(): int
    {
        return \count($this->connections);
    }

    public function acceptedCount(): int
    {
        return $this->accepted;
    }

    /** Stops accepting and drains; the loop ends once the last connection is closed. */
    public function stop(): void
    {
        if ($this->stopping) {
            return;
        }
        $this->stopping = true;
        if ($this->acceptId !== null) {
            EventLoop::cancel($this->acceptId);
        }
        @\fclose($this->listener);
        foreach ($this->connections as $connection) {
            $connection->drain();
        }
        $this->finishIfDrained();
    }

    /** Closes every connection now, in-flight requests included. */
    public function abort(): void
    {
        $this->stop();
        foreach ($this->connections as $connection) {
            $connection->close();
        }
    }

    private function accept(): void
    {
        // Take a few at once, not many: every worker accepts from the same listening socket, and a
        // worker that grabbed a whole burst would leave the others idle. At the cap each accepted
        // connection replaces one, so more are taken per wake-up: 5,000 idle connections queued
        // ahead of a real client are then got through in milliseconds (with 4, 140 ms).
        $batch = \count($this->connections) >= $this->maxConnections ? self::BATCH_AT_CAP : self::BATCH;
        for ($i = 0; $i < $batch; ++$i) {
            // At the cap, the connection that will make room is chosen first, and closed only
            // once a new connection was in fact accepted.
            $makeRoom = null;
            if (\count($this->connections) >= $this->maxConnections) {
                $makeRoom = $this->longestWaiting();
                if ($makeRoom === null) {
                    \assert($this->acceptId !== null);
                    EventLoop::disable($this->acceptId);
                    $this->paused = true;

                    return;
                }
            }
            $socket = @\stream_socket_accept($this->listener, 0, $peer);
            if ($socket === false) {
                return;
            }
            $makeRoom?->close();
            \stream_set_blocking($socket, false);
            \stream_set_read_buffer($socket, 0);
            \stream_set_write_buffer($socket, 0);
            ++$this->accepted;
            if ($i === 0) {
                $this->set->clock->tick();
            }
            $connection = $this->protocols->open($socket, Peer::accepted($peer, $this->localAddress, $this->localPort), $this);
            $this->connections[\spl_object_id($connection)] = $connection;
        }
    }

    /**
     * The connection that has waited longest without a whole request, if any: at the cap it makes
     * room for a new one (a client must be ready for a server to close a connection that has no
     * request in progress, RFC 9112 §9.5). Runs only at the cap: one pass over the connections.
     */
    private function longestWaiting(): ?ConnectionDriver
    {
        $oldest = null;
        $since = \INF;
        foreach ($this->connections as $connection) {
            $waiting = $connection->waitingSince();
            if ($waiting !== null && $waiting < $since) {
                $since = $waiting;
                $oldest = $connection;
            }
        }

        return $oldest;
    }

    /** @internal ConnectionEvents: $connection closed. */
    public function closed(ConnectionDriver $connection): void
    {
        unset($this->connections[\spl_object_id($connection)]);
        if ($this->stopping) {
            $this->finishIfDrained();
        } elseif ($this->paused) {
            \assert($this->acceptId !== null);
            $this->paused = false;
            EventLoop::enable($this->acceptId);
        }
    }

    /** @internal ConnectionEvents: $old handed its socket to $new (an upgrade). */
    public function replaced(ConnectionDriver $old, ConnectionDriver $new): void
    {
        unset($this->connections[\spl_object_id($old)]);
        if ($new->isClosed()) {
            $this->closed($new);

            return;
        }
        $this->connections[\spl_object_id($new)] = $new;
        if ($this->stopping) {
            $new->drain();
        }
    }

    /**
     * Makes sure the timer runs by $at: the wheel tells of each new slot, the runner of each new
     * oldest request. A later deadline than the one armed costs this comparison only.
     */
    private function wakeBy(float $at): void
    {
        if ($this->expiring !== null) {
            $this->expiring = \min($this->expiring, $at);

            return;
        }
        if ($at >= $this->timerAt) {
            return;
        }
        if ($this->timerId !== null) {
            EventLoop::cancel($this->timerId);
        }
        $this->timerAt = $at;
        $this->timerId = EventLoop::unreference(EventLoop::delay(\max(0.0, $at - \microtime(true)) + self::TIMER_SLACK, $this->expireTimeouts(...)));
    }

    private function expireTimeouts(): void
    {
        // The worker's one timer and one clock for every timeout: the connections' (header, body,
        // keep-alive, stalled writes) and the requests' (--request-timeout, the RequestRunner's).
        $this->timerId = null;
        $this->timerAt = \INF;
        $this->expiring = \INF;
        $now = $this->set->clock->tick();
        $this->set->timeouts->expire($now);
        $this->set->requests->expire($now);
        $this->expiring = null;
        $this->wakeBy(\min($this->set->timeouts->nextDue(), $this->set->requests->nextDeadline()));
    }

    private function finishIfDrained(): void
    {
        if ($this->connections === [] && $this->timerId !== null) {
            EventLoop::cancel($this->timerId);
            $this->timerId = null;
            $this->timerAt = \INF;
        }
    }
}
