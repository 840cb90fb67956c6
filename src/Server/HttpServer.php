<?php

declare(strict_types=1);

namespace Spindle\Server;

use Revolt\EventLoop;
use Spindle\Http\Connection;
use Spindle\Http\ConnectionServices;
use Spindle\Http\TimeoutWheel;

/**
 * Accepts connections on one listening socket and serves them until stopped.
 * stop() closes the listener, lets in-flight requests finish and closes idle connections.
 *
 * At most $maxConnections are open at once. At the cap the connection that has waited longest
 * without a whole request (one that never sent anything, one trickling its request head, one whose
 * body has fallen behind the minimum body rate, or an idle keep-alive connection: see
 * Connection::waitingSince()) is closed to make room for a new one, so idle or slow clients cannot
 * keep real ones out; when every connection has a request in progress the server stops accepting,
 * and the connections that arrive meanwhile wait in the listening socket's
 * queue (or another worker takes them) until one closes.
 */
final class HttpServer
{
    private const BATCH = 4;
    private const BATCH_AT_CAP = 32;

    private ?string $acceptId = null;
    private readonly string $timerId;
    /** @var array<int, Connection> */
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
    ) {
        $this->timerId = EventLoop::unreference(EventLoop::repeat(TimeoutWheel::RESOLUTION, $this->expireTimeouts(...)));
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
            $colon = (int) \strrpos($peer, ':');
            $connection = new Connection(
                $socket,
                $this->set,
                $this->forget(...),
                \trim(\substr($peer, 0, $colon), '[]'),
                (int) \substr($peer, $colon + 1),
                $this->localAddress,
                $this->localPort,
            );
            $this->connections[\spl_object_id($connection)] = $connection;
        }
    }

    /**
     * The connection that has waited longest without a whole request, if any: at the cap it makes
     * room for a new one (a client must be ready for a server to close a connection that has no
     * request in progress, RFC 9112 §9.5). Runs only at the cap: one pass over the connections.
     */
    private function longestWaiting(): ?Connection
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

    private function forget(Connection $connection): void
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

    private function expireTimeouts(): void
    {
        // The worker's one timer and one clock for every timeout: the connections' (header, body,
        // keep-alive, stalled writes) and the requests' (--request-timeout, the RequestRunner's).
        $now = $this->set->clock->tick();
        $this->set->timeouts->expire($now);
        $this->set->requests->expire($now);
    }

    private function finishIfDrained(): void
    {
        if ($this->connections === []) {
            EventLoop::cancel($this->timerId);
        }
    }
}
