<?php

declare(strict_types=1);

namespace Spindle\Server;

use Revolt\EventLoop;
use Spindle\Http\Connection;
use Spindle\Http\HandlerSet;

/**
 * Accepts connections on one listening socket and serves them until stopped.
 * stop() closes the listener, lets in-flight requests finish and closes idle connections.
 *
 * At most $maxConnections are open at once. At the cap an idle keep-alive connection is closed to
 * make room for a new one; when none is idle the server stops accepting, and the connections that
 * arrive meanwhile wait in the listening socket's queue (or another worker takes them) until one
 * closes.
 */
final class HttpServer
{
    private ?string $acceptId = null;
    private readonly string $sweepId;
    /** @var array<int, Connection> */
    private array $connections = [];
    private bool $stopping = false;
    private bool $paused = false;
    private int $accepted = 0;

    /** @param resource $listener */
    public function __construct(
        private readonly mixed $listener,
        private readonly HandlerSet $set,
        private readonly string $localAddress,
        private readonly int $localPort,
        private readonly int $maxConnections = 512,
    ) {
        $this->sweepId = EventLoop::unreference(EventLoop::repeat(0.5, $this->sweep(...)));
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
        // worker that grabbed a whole burst would leave the others idle.
        for ($i = 0; $i < 4; ++$i) {
            if (\count($this->connections) >= $this->maxConnections && !$this->closeAnIdleConnection()) {
                \assert($this->acceptId !== null);
                EventLoop::disable($this->acceptId);
                $this->paused = true;

                return;
            }
            $socket = @\stream_socket_accept($this->listener, 0, $peer);
            if ($socket === false) {
                return;
            }
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

    /** Makes room at the cap by closing the idle keep-alive connection accepted first, if there is one. */
    private function closeAnIdleConnection(): bool
    {
        foreach ($this->connections as $connection) {
            if ($connection->closeIfIdle()) {
                return true;
            }
        }

        return false;
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

    private function sweep(): void
    {
        $now = $this->set->clock->tick();
        foreach ($this->connections as $connection) {
            $connection->checkTimeouts($now);
        }
    }

    private function finishIfDrained(): void
    {
        if ($this->connections === []) {
            EventLoop::cancel($this->sweepId);
        }
    }
}
