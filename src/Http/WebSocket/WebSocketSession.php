<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * One WebSocket connection's protocol state, server side, with no socket in sight: the driver
 * feeds it what it reads (receive()) and writes what it hands out (takeOutput()).
 *
 * - receive() returns the peer's complete messages and control frames as events. Pings are
 *   answered with pongs at once (queued as output).
 * - A close frame from the peer is echoed with its code (RFC 6455 §5.5.1; an empty close with an
 *   empty one) and the session is Closed. close() sends one and moves to Closing until the peer's
 *   arrives.
 * - A protocol error queues a close frame with the error's code (1002, 1007, 1009) and reason and
 *   the session is Closed: error() tells what happened.
 * - When the peer's close or a protocol error comes in the same read as complete messages, the
 *   session stays Open until the next takeOutput() (or receive()): replies the app sends to those
 *   messages in between go out before the close frame, as if the frames had come one by one.
 * - Once Closed with no output left, shouldCloseTransport() says the driver may close the socket
 *   (the server closes the TCP connection first, RFC 6455 §7.1.1).
 *
 * Time comes only from the clock given (a closure returning seconds), for the activity stamps.
 */
final class WebSocketSession
{
    private readonly FrameParser $parser;
    private SessionState $state = SessionState::Open;
    private string $output = '';
    private ?int $closeCode = null;
    private string $closeReason = '';
    private bool $closeReceived = false;
    /** @var array{int, string, bool}|null the close (code, reason, whether a protocol error) receive() met after messages, applied by takeOutput() */
    private ?array $pendingEnd = null;
    private int $messagesIn = 0;
    private int $messagesOut = 0;
    private int $bytesIn = 0;
    private int $bytesOut = 0;
    private ?float $lastReceivedAt = null;
    private ?float $lastSentAt = null;

    private readonly ?Deflater $deflater;

    /**
     * @param (\Closure(): float)|null $clock
     * @param DeflateParams|null $deflate permessage-deflate as the handshake agreed it (HandshakeResult::$deflate)
     */
    public function __construct(
        private readonly WebSocketLimits $limits = new WebSocketLimits(),
        private readonly ?\Closure $clock = null,
        ?DeflateParams $deflate = null,
    ) {
        $this->deflater = $deflate === null ? null : new Deflater($deflate);
        $this->parser = FrameParser::forServer($limits, $this->deflater);
    }

    public function state(): SessionState
    {
        return $this->state;
    }

    /**
     * Takes bytes read from the peer.
     *
     * @return list<Event> the peer's messages and control frames, in order (pings already answered)
     */
    public function receive(string $bytes): array
    {
        if ($this->state === SessionState::Closed || $bytes === '') {
            return [];
        }
        $this->bytesIn += \strlen($bytes);
        if ($this->clock !== null) {
            $this->lastReceivedAt = ($this->clock)();
        }
        $this->applyPendingEnd();
        if ($this->state === SessionState::Closed) {
            return [];
        }
        $events = $this->parser->push($bytes);
        $sawMessage = false;
        foreach ($events as $event) {
            switch ($event->type) {
                case EventType::Text:
                case EventType::Binary:
                    ++$this->messagesIn;
                    $sawMessage = true;
                    break;
                case EventType::Ping:
                    if ($this->state === SessionState::Open) {
                        $this->queue(FrameEncoder::frame(Opcode::Pong->value, $event->payload));
                    }
                    break;
                case EventType::Pong:
                    break;
                case EventType::Close:
                    $this->closeReceived = true;
                    $this->pendingEnd = [$event->closeCode, $event->payload, false];
                    break;
            }
        }
        $error = $this->parser->error();
        if ($error !== null) {
            $this->pendingEnd = [$error->closeCode->value, $error->getMessage(), true];
        }
        if (!$sawMessage || $this->state !== SessionState::Open) {
            $this->applyPendingEnd();
        }

        return $events;
    }

    public function sendText(string $payload): void
    {
        $this->sendMessage(false, $payload);
    }

    public function sendBinary(string $payload): void
    {
        $this->sendMessage(true, $payload);
    }

    /** Sends a ping (at most 125 bytes of payload); the pong comes back as an event. */
    public function ping(string $payload = ''): void
    {
        $this->assertOpen();
        $this->queue(FrameEncoder::ping($payload));
    }

    /**
     * Starts the closing handshake: queues a close frame and waits (Closing) for the peer's.
     * CloseCode::NoStatus sends a close frame without a code. Closing twice does nothing.
     */
    public function close(int|CloseCode $code = CloseCode::Normal, string $reason = ''): void
    {
        if ($this->state !== SessionState::Open) {
            return;
        }
        $code = $code instanceof CloseCode ? $code->value : $code;
        if ($code !== CloseCode::NoStatus->value && !CloseCode::isValidOnWire($code)) {
            throw new \InvalidArgumentException(\sprintf('Close code %d may not be sent', $code));
        }
        $this->closeCode = $code;
        $this->closeReason = $reason;
        $this->queue(FrameEncoder::close($code, $reason));
        $this->state = SessionState::Closing;
    }

    /**
     * The peer is gone (the socket closed or failed) without finishing the closing handshake:
     * Closed, with 1006 unless it was Closed already, and nothing left to send.
     */
    public function connectionLost(): void
    {
        $this->pendingEnd = null;
        if ($this->state !== SessionState::Closed) {
            $this->closeCode = CloseCode::Abnormal->value;
        }
        $this->state = SessionState::Closed;
        $this->output = '';
    }

    /** The bytes to write to the peer, handed out once. */
    public function takeOutput(): string
    {
        $this->applyPendingEnd();
        $output = $this->output;
        $this->output = '';

        return $output;
    }

    public function hasOutput(): bool
    {
        return $this->output !== '' || $this->pendingEnd !== null;
    }

    /** Whether the driver should close the socket now: Closed and everything written. */
    public function shouldCloseTransport(): bool
    {
        return $this->state === SessionState::Closed && $this->output === '';
    }

    /** The close code: the peer's (1005 if its close had none), the one sent, or 1006 for a lost connection; null while open. */
    public function closeCode(): ?int
    {
        return $this->closeCode;
    }

    public function closeReason(): string
    {
        return $this->closeReason;
    }

    /** Whether the peer's close frame arrived (a clean closing handshake when it did). */
    public function closeReceived(): bool
    {
        return $this->closeReceived;
    }

    /** The protocol error that failed the connection, if one did. */
    public function error(): ?ProtocolError
    {
        return $this->parser->error();
    }

    public function counters(): SessionCounters
    {
        return new SessionCounters(
            $this->messagesIn,
            $this->messagesOut,
            $this->bytesIn,
            $this->bytesOut,
            $this->lastReceivedAt,
            $this->lastSentAt,
        );
    }

    /**
     * Ends the session for the close frame or protocol error receive() met: echoes the peer's
     * close or sends the error's, unless this side's close went out already.
     */
    private function applyPendingEnd(): void
    {
        if ($this->pendingEnd === null) {
            return;
        }
        [$code, $reason, $isError] = $this->pendingEnd;
        $this->pendingEnd = null;
        if ($this->state === SessionState::Open) {
            $this->closeCode = $code;
            $this->closeReason = $reason;
            $this->queue($isError ? FrameEncoder::close($code, $reason) : FrameEncoder::close($code));
        }
        $this->state = SessionState::Closed;
    }

    private function sendMessage(bool $binary, string $payload): void
    {
        $this->assertOpen();
        ++$this->messagesOut;
        if ($this->deflater !== null && \strlen($payload) >= $this->deflater->params->minCompressBytes) {
            $this->queue(FrameEncoder::message($binary, $this->deflater->deflate($payload), $this->limits->outgoingFragmentBytes, null, 4));

            return;
        }
        if (!$binary && $this->limits->outgoingFragmentBytes === 0 && \strlen($payload) < 126) {
            $this->queue("\x81" . \chr(\strlen($payload)) . $payload);

            return;
        }
        $this->queue(FrameEncoder::message($binary, $payload, $this->limits->outgoingFragmentBytes));
    }

    private function assertOpen(): void
    {
        if ($this->state !== SessionState::Open) {
            throw new SessionClosed(\sprintf('The WebSocket session is %s: nothing more can be sent', \strtolower($this->state->name)));
        }
    }

    private function queue(string $frame): void
    {
        $this->output .= $frame;
        $this->bytesOut += \strlen($frame);
        if ($this->clock !== null) {
            $this->lastSentAt = ($this->clock)();
        }
    }
}
