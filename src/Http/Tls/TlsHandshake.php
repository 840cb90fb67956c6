<?php

declare(strict_types=1);

namespace Spindle\Http\Tls;

use Revolt\EventLoop;
use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\ConnectionServices;
use Spindle\Http\Expiring;
use Spindle\Http\Peer;

/**
 * The first driver of a connection to an HTTPS listener: runs the TLS handshake without blocking
 * the worker (each step is retried when the socket is readable; a client that stalls
 * mid-handshake holds only its socket), within --header-timeout, then hands the socket to the
 * driver for the protocol ALPN agreed on (h2, or HTTP/1.1). A handshake that fails (plain HTTP
 * sent to the TLS port, a client that offers nothing acceptable) closes the connection.
 */
final class TlsHandshake implements ConnectionDriver, Expiring
{
    private readonly string $readId;
    private bool $closed = false;
    private readonly float $startedAt;

    /**
     * @param resource $socket
     * @param \Closure(mixed, Peer, string): ConnectionDriver $next makes the driver for the socket,
     *        its peer (now secure) and the protocol ALPN chose ('h2', 'http/1.1', '' for none)
     */
    public function __construct(
        private readonly mixed $socket,
        private readonly ConnectionServices $set,
        private readonly ConnectionEvents $events,
        private readonly Peer $peer,
        TlsSettings $settings,
        private readonly \Closure $next,
    ) {
        foreach ($settings->contextOptions() as $name => $value) {
            \stream_context_set_option($socket, 'ssl', $name, $value);
        }
        $this->startedAt = $set->clock->now;
        $this->readId = EventLoop::onReadable($socket, $this->step(...));
        $set->timeouts->schedule($this, $this->startedAt + $set->limits->headerTimeout);
    }

    public function drain(): void
    {
        // A handshake in progress is no request yet: it goes at once.
        $this->close();
    }

    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        $this->set->timeouts->forget($this);
        EventLoop::cancel($this->readId);
        @\fclose($this->socket);
        $this->events->closed($this);
    }

    public function isClosed(): bool
    {
        return $this->closed;
    }

    public function waitingSince(): ?float
    {
        return $this->closed ? null : $this->startedAt;
    }

    public function expireTimeouts(float $now): void
    {
        if (!$this->closed && $now - $this->startedAt > $this->set->limits->headerTimeout) {
            $this->close();
        } elseif (!$this->closed) {
            $this->set->timeouts->schedule($this, $this->startedAt + $this->set->limits->headerTimeout);
        }
    }

    /** One step of the handshake, whenever the client has sent something. */
    private function step(): void
    {
        $done = @\stream_socket_enable_crypto($this->socket, true);
        if ($done === 0) {
            // Needs more from the client.
            if (\feof($this->socket)) {
                $this->close();
            }

            return;
        }
        if ($done !== true) {
            $this->close();

            return;
        }
        $this->closed = true;
        $this->set->timeouts->forget($this);
        EventLoop::cancel($this->readId);
        $crypto = \stream_get_meta_data($this->socket)['crypto'] ?? [];
        $protocol = $crypto['alpn_protocol'] ?? '';
        $this->set->clock->tick();
        $this->events->replaced($this, ($this->next)($this->socket, $this->peer->overTls(), $protocol));
    }
}
