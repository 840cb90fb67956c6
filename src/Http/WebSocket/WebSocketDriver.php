<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

use Revolt\EventLoop;
use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\ConnectionServices;
use Spindle\Http\Expiring;
use Spindle\Http\SocketOutput;
use Spindle\Http\UpgradedSocket;
use Spindle\Loop\Context;
use Spindle\Loop\TaskRunner;

/**
 * The connection driver of an upgraded WebSocket connection: moves bytes between its socket and
 * its WebSocketSession (the sans-I/O protocol), and hands the app's WebSocketHandler what
 * happens, in a task at a time (see WebSocketHandler). Its deadlines are on the worker's
 * TimeoutWheel: a ping after WebSocketOptions::$idleTimeout of silence and a drop after as much
 * again, a drop once writes have stalled for the body timeout, and the end of the closing
 * handshake. Nothing runs for an idle connection between them.
 */
final class WebSocketDriver implements ConnectionDriver, Expiring
{
    private const READ_SIZE = 65536;
    /** Seconds the peer has to answer a close before the socket is closed anyway. */
    private const CLOSE_GRACE = 2.0;
    /** Request headers only the handshake reads (Sec-WebSocket-Protocol stays: apps pass tokens in it). */
    private const HANDSHAKE_HEADERS = ['upgrade', 'connection', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions'];

    private readonly WebSocketSession $session;
    public readonly WebSocket $socket;
    /** @var resource */
    private readonly mixed $stream;
    private readonly ConnectionServices $set;
    private readonly ConnectionEvents $events;
    private readonly TaskRunner $tasks;
    private readonly string $readId;
    /** What the socket did not take yet, while it has not (null: everything went, the common case). */
    private ?SocketOutput $output = null;
    /** When the socket last took bytes, by the worker's clock (while $output is null). */
    private float $lastWriteAt;
    private bool $closed = false;
    private float $lastReadAt;
    /** When a ping went for silence (0: none is out). */
    private float $pingedAt = 0.0;
    /** When a close this side sent was written (INF: none). */
    private float $closingSince = \INF;
    private float $checkAt = \INF;
    /** @var list<array{0: 'open'}|array{0: 'message', 1: string, 2: bool}|array{0: 'close', 1: int, 2: string}> what waits for the handler */
    private array $inbox = [];
    /** A task is running the handler for this connection. */
    private bool $busy = false;
    /** The client has sent a byte since the 101 (till then WebSocketConnections::openTimeout() bounds its silence). */
    private bool $heard = false;
    private int $closeCode = 1006;
    /** The client's address as --ws-max-per-ip counts it. */
    private readonly string $address;
    private readonly WebSocketConnections $tally;

    public function __construct(
        UpgradedSocket $upgraded,
        private readonly WebSocketHandler $handler,
        private readonly WebSocketOptions $options,
        ?string $subprotocol,
    ) {
        $this->stream = $upgraded->socket;
        $this->set = $upgraded->services;
        $this->events = $upgraded->events;
        $this->tasks = $upgraded->services->requests->tasks();
        $this->session = new WebSocketSession($options->limits);
        // The handshake's own headers are of no use once it is done: an open connection keeps
        // the rest only (see docs/protocols.md, "Holding many connections").
        $request = $upgraded->request->withoutHeaders(...self::HANDSHAKE_HEADERS);
        $this->socket = new WebSocket($this, \spl_object_id($this), $request, $subprotocol);
        $this->lastReadAt = $this->lastWriteAt = $this->set->clock->tick();
        $this->tally = $upgraded->services->webSockets;
        $this->address = $this->tally->addressOf($request);
        $this->tally->opened($this->address);
        $this->readId = EventLoop::onReadable($this->stream, $this->onReadable(...));
        $this->inbox[] = ['open'];
        if ($upgraded->unwritten !== '') {
            $this->writeRaw($upgraded->unwritten);
        }
        if ($upgraded->readAhead !== '') {
            $this->onBytes($upgraded->readAhead);
        }
        $this->dispatch();
        $this->checkBy($this->nextDeadline());
    }

    /** @internal WebSocket::send() */
    public function send(string $payload, bool $binary): bool
    {
        if ($this->closed || $this->session->state() !== SessionState::Open) {
            ++$this->tally->messagesDropped;

            return false;
        }
        $binary ? $this->session->sendBinary($payload) : $this->session->sendText($payload);
        ++$this->tally->messagesOut;
        $this->flushSession();

        return true;
    }

    /** @internal WebSocket::ping() */
    public function ping(string $payload): void
    {
        if (!$this->closed && $this->session->state() === SessionState::Open) {
            $this->session->ping($payload);
            $this->flushSession();
        }
    }

    /** @internal WebSocket::close() */
    public function closeWith(int|CloseCode $code, string $reason): void
    {
        if ($this->closed || $this->session->state() !== SessionState::Open) {
            return;
        }
        $this->session->close($code, $reason);
        $this->closingSince = $this->set->clock->tick();
        $this->flushSession();
        $this->checkBy($this->closingSince + self::CLOSE_GRACE);
    }

    /** @internal WebSocket::isOpen() */
    public function isOpen(): bool
    {
        return !$this->closed && $this->session->state() === SessionState::Open;
    }

    /** @internal WebSocket::bufferedAmount() */
    public function buffered(): int
    {
        return $this->output?->buffered() ?? 0;
    }

    /** The close code the connection ended with (1006: lost without a closing handshake); null while open. */
    public function closeCode(): ?int
    {
        return $this->closed ? $this->closeCode : null;
    }

    /** Bytes sent to the client after the handshake (frames, control frames included). */
    public function bytesSent(): int
    {
        return $this->session->counters()->bytesOut;
    }

    /** The worker stops: the client is told to go away (WebSocketOptions::$drainCode) and may reconnect elsewhere. */
    public function drain(): void
    {
        $this->closeWith($this->options->drainCode, 'Server restarting');
    }

    public function close(): void
    {
        $this->lose();
    }

    public function isClosed(): bool
    {
        return $this->closed;
    }

    public function waitingSince(): ?float
    {
        // An open WebSocket is the app's to keep: it is never closed to make room for another.
        return null;
    }

    public function expireTimeouts(float $now): void
    {
        $this->checkAt = \INF;
        if ($this->closed) {
            return;
        }
        if ($now >= $this->closingSince + self::CLOSE_GRACE) {
            // The peer did not answer the close.
            $this->lose();

            return;
        }
        $lastWriteAt = $this->output->lastWriteAt ?? $this->lastWriteAt;
        if ($this->buffered() !== 0 && $now - $lastWriteAt > $this->set->limits->bodyTimeout) {
            $this->set->logger->info(\sprintf('WebSocket %s: the client took nothing for %.0f s; dropped', $this->socket->request->path, $now - $lastWriteAt));
            ++$this->tally->slowDropped;
            $this->lose();

            return;
        }
        $idle = $this->silence();
        if ($idle > 0 && $this->session->state() === SessionState::Open) {
            if ($this->pingedAt > 0 && $now >= $this->pingedAt + $idle) {
                ++$this->tally->silentDropped;
                $this->lose();

                return;
            }
            if ($this->pingedAt === 0.0 && $now >= $this->lastReadAt + $idle) {
                $this->pingedAt = $now;
                $this->session->ping();
                $this->flushSession();
            }
        }
        if (!$this->closed) {
            $this->checkBy($this->nextDeadline());
        }
    }

    private function nextDeadline(): float
    {
        $next = $this->closingSince + self::CLOSE_GRACE;
        if ($this->output !== null && $this->output->buffered() !== 0) {
            $next = \min($next, $this->output->lastWriteAt + $this->set->limits->bodyTimeout);
        }
        $idle = $this->silence();
        if ($idle > 0) {
            $next = \min($next, $this->pingedAt > 0 ? $this->pingedAt + $idle : $this->lastReadAt + $idle);
        }

        return $next;
    }

    /**
     * Seconds of silence before a ping, and then before a drop: the idle timeout, or the shorter
     * open timeout while the client has sent nothing since the 101 (a client that opened a
     * connection and never spoke holds it for seconds, not minutes).
     */
    private function silence(): float
    {
        $idle = $this->options->idleTimeout;
        $open = $this->heard ? 0.0 : $this->tally->openTimeout();
        if ($open > 0 && ($idle === 0.0 || $open < $idle)) {
            return $open;
        }

        return $idle;
    }

    private function checkBy(float $deadline): void
    {
        if ($deadline < $this->checkAt) {
            $this->checkAt = $deadline;
            $this->set->timeouts->schedule($this, $deadline);
        }
    }

    private function onReadable(): void
    {
        $data = @\fread($this->stream, self::READ_SIZE);
        if ($data === false || $data === '') {
            if ($data === false || \feof($this->stream)) {
                $this->lose();
            }

            return;
        }
        // A later deadline costs nothing until its slot comes (see checkBy()).
        $this->lastReadAt = $this->set->clock->tick();
        $this->pingedAt = 0.0;
        $this->heard = true;
        $this->onBytes($data);
    }

    private function onBytes(string $data): void
    {
        $this->tally->bytesIn += \strlen($data);
        foreach ($this->session->receive($data) as $event) {
            if ($event->type === EventType::Text || $event->type === EventType::Binary) {
                $this->inbox[] = ['message', $event->payload, $event->type === EventType::Binary];
                ++$this->tally->messagesIn;
            }
        }
        $this->dispatch();
        $this->flushSession();
    }

    /** Writes what the session has to send; closes the socket once the session is done. */
    private function flushSession(): void
    {
        if ($this->closed) {
            return;
        }
        $bytes = $this->session->takeOutput();
        if ($bytes !== '') {
            $this->tally->bytesOut += \strlen($bytes);
            $this->writeRaw($bytes);
        }
        if (!$this->closed && $this->session->shouldCloseTransport() && $this->buffered() === 0) {
            $this->closeSocket($this->session->closeCode() ?? CloseCode::NoStatus->value, $this->session->closeReason());
        }
    }

    /**
     * Writes to the socket; only what it does not take is kept, in a SocketOutput made for the
     * while (an idle connection holds none, nor its callbacks).
     */
    private function writeRaw(string $bytes): void
    {
        if ($this->output === null) {
            $written = @\fwrite($this->stream, $bytes);
            if ($written === false) {
                $this->lose();

                return;
            }
            $this->lastWriteAt = $this->set->clock->now;
            if ($written === \strlen($bytes)) {
                return;
            }
            $this->output = new SocketOutput($this->stream, $this->set->clock, $this->drained(...), $this->lose(...));
            $bytes = (string) \substr($bytes, $written);
        }
        $this->output->write($bytes);
        $behind = $this->output->buffered();
        if ($behind > $this->options->maxBuffered) {
            $this->set->logger->info(\sprintf('WebSocket %s: the client is %d bytes behind; dropped', $this->socket->request->path, $behind));
            ++$this->tally->slowDropped;
            $this->lose(CloseCode::PolicyViolation->value, 'Too slow');
        } elseif ($behind !== 0) {
            $this->checkBy($this->output->lastWriteAt + $this->set->limits->bodyTimeout);
        }
    }

    /** The socket took all that was kept: the SocketOutput goes until it is needed again. */
    private function drained(): void
    {
        if ($this->output !== null) {
            $this->lastWriteAt = $this->output->lastWriteAt;
            $this->output->close();
            $this->output = null;
        }
        $this->flushSession();
    }

    /** The connection is gone without a (finished) closing handshake: 1006 unless $code says otherwise. */
    private function lose(int $code = 1006, string $reason = ''): void
    {
        if ($this->closed) {
            return;
        }
        $this->session->connectionLost();
        $this->closeSocket($code, $reason);
    }

    private function closeSocket(int $code, string $reason): void
    {
        $this->closed = true;
        $this->closeCode = $code;
        $this->set->timeouts->forget($this);
        EventLoop::cancel($this->readId);
        $this->output?->close();
        $this->output = null;
        @\fclose($this->stream);
        $this->tally->closed($this->address, $code);
        $this->inbox[] = ['close', $code, $reason];
        $this->dispatch();
        $this->events->closed($this);
    }

    /** Starts a task for what waits in the inbox, unless one runs already. */
    private function dispatch(): void
    {
        if ($this->busy || $this->inbox === []) {
            return;
        }
        $this->busy = true;
        // The closure is made for each run, not kept: an idle connection holds no callback but its read.
        $this->tasks->run(new Context('WebSocket ' . $this->socket->request->path), $this->runInbox(...));
    }

    /** In a task: the handler's calls for what waits, one after the other. */
    private function runInbox(): void
    {
        while (($next = \array_shift($this->inbox)) !== null) {
            try {
                match ($next[0]) {
                    'open' => $this->handler->onOpen($this->socket),
                    'message' => $this->handler->onMessage($this->socket, $next[1], $next[2]),
                    'close' => $this->handler->onClose($this->socket, $next[1], $next[2]),
                };
            } catch (\Throwable $e) {
                $this->set->logger->error(\sprintf('WebSocket %s: the handler failed: %s', $this->socket->request->path, $e->getMessage()), ['exception' => $e]);
                $this->closeWith(CloseCode::InternalError, $this->set->debug ? \substr($e->getMessage(), 0, 120) : 'Internal error');
            }
        }
        // An emptied array keeps its slots: a new empty one holds none.
        $this->inbox = [];
        $this->busy = false;
    }
}
