<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

use Spindle\Http\Http2\Event\ConnectionError;
use Spindle\Http\Http2\Event\DataReceived;
use Spindle\Http\Http2\Event\GoAwayReceived;
use Spindle\Http\Http2\Event\Http2Event;
use Spindle\Http\Http2\Event\StreamOpened;
use Spindle\Http\Http2\Event\StreamReset;
use Spindle\Http\Http2\Event\TrailersReceived;
use Spindle\Http\Http2\Event\WindowOpened;
use Spindle\Http\Http2\Hpack\HeaderListTooLarge;
use Spindle\Http\Http2\Hpack\HpackDecoder;
use Spindle\Http\Http2\Hpack\HpackEncoder;
use Spindle\Http\Http2\Hpack\HpackException;

/**
 * The server side of one HTTP/2 connection (RFC 9113), sans I/O: the driver pushes the bytes it
 * reads and gets events back, calls send*() for responses, and writes what takeOutput() returns.
 * No socket, no clock, no loop.
 *
 * Every bound is a setting (Http2Settings); docs/http2.md lists them with the attack each answers.
 * After a connection error the session has queued GOAWAY, reports ConnectionError once and ignores
 * further input; the driver writes takeOutput() and closes.
 *
 * Over 500 lines: one connection's frame handlers (SETTINGS, HEADERS and CONTINUATION, DATA,
 * RST_STREAM, WINDOW_UPDATE, GOAWAY, PING, PRIORITY) share the stream table and the connection's
 * state; the sending half (Outbound), the header block being received (HeaderBlock), the flood
 * counters (FloodGuard) and the memory of closed streams (ClosedStreams) are classes of their own.
 */
final class Http2Session
{
    public const PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    private const MAX_WINDOW = Outbound::MAX_WINDOW;

    private string $preface = '';
    private bool $prefaceDone = false;
    private bool $settingsReceived = false;
    private bool $settingsAcked = false;
    private bool $closed = false;
    private readonly FrameParser $parser;
    private readonly HpackDecoder $decoder;
    private readonly Outbound $out;
    /** @var array<int, Stream> Streams not yet closed, by id. */
    private array $streams = [];
    /** @var list<Http2Event> */
    private array $events = [];
    /** The highest stream id the peer opened (later ids only may follow). */
    private int $lastStreamId = 0;
    /** Once we sent GOAWAY: streams above this id are ignored. */
    private int $goAwayId = -1;
    private bool $peerGoAway = false;
    /** How the last 4 × maxConcurrentStreams streams closed. */
    private readonly ClosedStreams $closedStreams;

    /** The header block being assembled (HEADERS + CONTINUATION). */
    private readonly HeaderBlock $block;

    private int $recvWindow;
    private int $recvUnacked = 0;

    private readonly FloodGuard $guard;

    public function __construct(private readonly Http2Settings $settings = new Http2Settings())
    {
        $this->guard = new FloodGuard($settings);
        $this->block = new HeaderBlock($settings, $this->guard);
        $this->closedStreams = new ClosedStreams(max(16, 4 * $settings->maxConcurrentStreams));
        $this->parser = new FrameParser($this->onFrame(...), $settings->maxFrameSize);
        // The peer's encoder may use the protocol's 4096 until it acknowledges our SETTINGS.
        $this->decoder = new HpackDecoder(4096, $settings->maxHeaderListSize);
        $this->out = new Outbound($settings, new HpackEncoder(4096, $settings->headerTableSize), $this->guard);
        $this->recvWindow = $settings->connectionWindowSize;
        // Our connection preface: SETTINGS first (§3.4), then the larger connection window.
        $this->out->frame(FrameWriter::settings([
            0x2 => 0, // ENABLE_PUSH
            0x3 => $settings->maxConcurrentStreams,
            0x4 => $settings->initialWindowSize,
            0x5 => $settings->maxFrameSize,
            0x6 => $settings->maxHeaderListSize,
        ] + ($settings->headerTableSize !== 4096 ? [0x1 => $settings->headerTableSize] : [])));
        if ($settings->connectionWindowSize > 65535) {
            $this->out->frame(FrameWriter::windowUpdate(0, $settings->connectionWindowSize - 65535));
        }
    }

    /**
     * For a plain listener that serves HTTP/1.1 and h2c by prior knowledge: true when the first
     * bytes of a connection are HTTP/2's preface, false when they cannot be, null while too few
     * have arrived to tell (fewer than 24 that all match so far).
     */
    public static function startsWithPreface(string $firstBytes): ?bool
    {
        $n = min(\strlen($firstBytes), 24);
        if (strncmp($firstBytes, self::PREFACE, $n) !== 0) {
            return false;
        }

        return $n === 24 ? true : null;
    }

    /**
     * Bytes read from the peer, in pieces of any size.
     *
     * @return list<Http2Event>
     */
    public function push(string $bytes): array
    {
        if ($this->closed) {
            return $this->takeEvents();
        }
        try {
            if (!$this->prefaceDone) {
                $bytes = $this->preface($bytes);
                if ($bytes === '') {
                    return $this->takeEvents();
                }
            }
            while (true) {
                try {
                    $this->parser->push($bytes);
                    break;
                } catch (Http2StreamError $e) {
                    // The frame parser's stream-level checks (a bad PRIORITY frame): reset, read on.
                    $this->streamError($e);
                    $bytes = '';
                }
            }
        } catch (Http2ConnectionError $e) {
            $this->fail($e->errorCode, $e->getMessage());
        }
        if (!$this->closed && $this->out->hasBlocked()) {
            foreach ($this->out->unblocked($this->streams) as $id) {
                $this->events[] = new WindowOpened($id);
            }
        }

        return $this->takeEvents();
    }

    /** The bytes to write to the peer; the driver calls this when the socket can take them. */
    public function takeOutput(): string
    {
        return $this->out->take();
    }

    public function hasOutput(): bool
    {
        return $this->out->has();
    }

    /** True after a connection error, or once both sides said GOAWAY (or ours) and no stream is left. */
    public function isClosed(): bool
    {
        return $this->closed || (($this->goAwayId >= 0 || $this->peerGoAway) && $this->streams === []);
    }

    public function activeStreams(): int
    {
        return \count($this->streams);
    }

    /** Response bytes of the stream (0: of all streams) waiting for the peer's flow-control window. */
    public function pendingOutput(int $streamId = 0): int
    {
        return $streamId === 0 ? $this->out->queued : \strlen(isset($this->streams[$streamId]) ? $this->streams[$streamId]->out : '');
    }

    /**
     * False when the stream's writer should wait (its queue or the connection's is over its bound);
     * the stream then gets a WindowOpened event from push() once it may go on. Writing on regardless
     * raises \OverflowException. True for a stream that is gone (its writes are dropped).
     */
    public function canSend(int $streamId): bool
    {
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null || $this->out->canSend($stream)) {
            return true;
        }
        $this->out->block($streamId);

        return false;
    }

    /**
     * An interim response (1xx, e.g. 103 Early Hints): a HEADERS frame without END_STREAM.
     *
     * @param iterable<array{string, string}> $headers
     */
    public function sendInformational(int $streamId, int $status, iterable $headers = []): void
    {
        if ($status < 100 || $status > 199 || $status === 101) {
            throw new \InvalidArgumentException("$status is not an interim status HTTP/2 can send");
        }
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null || $stream->responded || $this->closed) {
            return;
        }
        $this->out->head($streamId, Outbound::fields($status, $headers), false);
    }

    /**
     * The final response head. Names are sent in lower case; connection-specific fields (which
     * HTTP/2 forbids) are dropped. A stream the peer reset meanwhile is ignored.
     *
     * @param iterable<array{string, string}> $headers
     */
    public function sendHeaders(int $streamId, int $status, iterable $headers, bool $endStream = false): void
    {
        if ($status < 200 || $status > 999) {
            throw new \InvalidArgumentException("$status is not a final status (interim ones go through sendInformational())");
        }
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null || $this->closed) {
            return;
        }
        if ($stream->responded) {
            throw new \LogicException("Stream $streamId already has its response head");
        }
        $fields = Outbound::fields($status, $headers);
        $stream->responded = true;
        $this->out->head($streamId, $fields, $endStream);
        if ($endStream) {
            $stream->endQueued = true;
            $this->localEnd($stream);
        }
    }

    /**
     * Response body bytes: sent as far as the flow-control windows allow, the rest queued.
     *
     * @throws \OverflowException the stream was told to wait (canSend() false) and wrote on
     */
    public function sendData(int $streamId, string $data, bool $endStream = false): void
    {
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null || $this->closed || $stream->endQueued) {
            return;
        }
        if (!$stream->responded) {
            throw new \LogicException("Stream $streamId has no response head yet");
        }
        if ($data !== '' && !$this->canSend($streamId)) {
            throw new \OverflowException("Stream $streamId has {$this->pendingOutput($streamId)} response bytes queued; wait for WindowOpened");
        }
        if ($this->out->data($stream, $data, $endStream)) {
            $this->localEnd($stream);
        }
    }

    /**
     * Response trailers; they end the stream once the queued body is sent.
     *
     * @param iterable<array{string, string}> $headers
     */
    public function sendTrailers(int $streamId, iterable $headers): void
    {
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null || $this->closed || $stream->endQueued) {
            return;
        }
        if ($this->out->trailers($stream, \array_slice(Outbound::fields(200, $headers), 1))) {
            $this->localEnd($stream);
        }
    }

    /** Ends a stream with RST_STREAM (the app gave up on it); queued output is dropped. */
    public function resetStream(int $streamId, ErrorCode $code = ErrorCode::Cancel): void
    {
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null || $this->closed) {
            return;
        }
        $this->out->frame(FrameWriter::rstStream($streamId, $code));
        $this->close($stream);
        $this->closedStreams->add($streamId, StreamClosure::Ours);
    }

    /**
     * The app read $bytes of the stream's request body: the peer may send that much more. Window
     * updates go out once half a window is owed, so a body read in small pieces costs few frames.
     */
    public function consumed(int $streamId, int $bytes): void
    {
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null || $stream->remoteEnded || $bytes <= 0 || $this->closed) {
            return;
        }
        // Never more than was handed over: the window may not grow past what we announced.
        $bytes = min($bytes, $stream->unread);
        $stream->unread -= $bytes;
        $stream->unacked += $bytes;
        if ($stream->unacked >= $this->settings->initialWindowSize >> 1) {
            $this->out->frame(FrameWriter::windowUpdate($streamId, $stream->unacked));
            $stream->recvWindow += $stream->unacked;
            $stream->unacked = 0;
        }
    }

    /**
     * Graceful end (RFC 9113 §6.8): GOAWAY with the last stream we took; streams up to it are
     * served, later ones ignored.
     */
    public function goAway(ErrorCode $code = ErrorCode::NoError, string $debug = ''): void
    {
        if ($this->closed || $this->goAwayId >= 0) {
            return;
        }
        $this->goAwayId = $this->lastStreamId;
        $this->out->frame(FrameWriter::goAway($this->lastStreamId, $code, $debug));
    }

    /** @return list<Http2Event> */
    private function takeEvents(): array
    {
        $events = $this->events;
        $this->events = [];

        return $events;
    }

    private function preface(string $bytes): string
    {
        $need = 24 - \strlen($this->preface);
        $this->preface .= substr($bytes, 0, $need);
        if (!str_starts_with(self::PREFACE, $this->preface)) {
            throw new Http2ConnectionError(ErrorCode::ProtocolError, 'Invalid connection preface');
        }
        if (\strlen($this->preface) < 24) {
            return '';
        }
        $this->prefaceDone = true;

        return (string) substr($bytes, $need);
    }

    private function onFrame(int $type, int $flags, int $streamId, string $payload, int $length): void
    {
        if ($this->closed) {
            return;
        }
        if (!$this->settingsReceived && $type !== 0x4) {
            throw new Http2ConnectionError(ErrorCode::ProtocolError, 'The client preface must start with SETTINGS');
        }
        if ($type !== 0x9 && $this->block->isOpen()) {
            throw new Http2ConnectionError(ErrorCode::ProtocolError, "Frame of type $type in the middle of a header block");
        }
        switch ($type) {
            case 0x0:
                $this->onData($flags, $streamId, $payload, $length);
                break;
            case 0x1:
                if ($this->block->begin($flags, $streamId, $payload, $this->parser->selfDependent)) {
                    $this->headerBlock();
                }
                break;
            case 0x9:
                if ($this->block->add($flags, $streamId, $payload)) {
                    $this->headerBlock();
                }
                break;
            case 0x3:
                $this->onRstStream($streamId, $payload);
                break;
            case 0x4:
                $this->onSettings($flags, $payload);
                break;
            case 0x6:
                if (!($flags & FrameParser::FLAG_ACK)) {
                    $this->out->control(FrameWriter::ping($payload, true));
                    $this->guard->unproductive('PING');
                }
                break;
            case 0x7:
                $this->onGoAway($payload);
                break;
            case 0x8:
                $this->onWindowUpdate($streamId, $payload);
                break;
            case 0x5:
                throw new Http2ConnectionError(ErrorCode::ProtocolError, 'PUSH_PROMISE from a client');
            default:
                // PRIORITY (deprecated, RFC 9113 §5.3.2; it may name an idle stream, which stays
                // idle) and unknown types (§4.1): ignored.
                $this->guard->unproductive($type === 0x2 ? 'PRIORITY' : 'unknown');
        }
    }

    private function onData(int $flags, int $streamId, string $data, int $length): void
    {
        if ($length > $this->recvWindow) {
            throw new Http2ConnectionError(ErrorCode::FlowControlError, "DATA of $length bytes beyond the connection window ({$this->recvWindow})");
        }
        $this->recvWindow -= $length;
        // The connection window comes back at once: stream windows bound what any stream holds.
        $this->recvUnacked += $length;
        if ($this->recvUnacked >= $this->settings->connectionWindowSize >> 1) {
            $this->out->frame(FrameWriter::windowUpdate(0, $this->recvUnacked));
            $this->recvWindow += $this->recvUnacked;
            $this->recvUnacked = 0;
        }
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null) {
            if ($streamId > $this->lastStreamId) {
                throw new Http2ConnectionError(ErrorCode::ProtocolError, "DATA on idle stream $streamId");
            }
            $this->closedStreamFrame($streamId, 'DATA');

            return;
        }
        if ($stream->remoteEnded) {
            $this->streamError(new Http2StreamError($streamId, ErrorCode::StreamClosed, "DATA after END_STREAM on stream $streamId"));

            return;
        }
        if ($length > $stream->recvWindow) {
            $this->streamError(new Http2StreamError($streamId, ErrorCode::FlowControlError, "DATA of $length bytes beyond stream $streamId's window"));

            return;
        }
        $stream->recvWindow -= $length;
        // Padding is consumed here: the app never sees it.
        if ($length > \strlen($data)) {
            $stream->unacked += $length - \strlen($data);
        }
        $end = ($flags & FrameParser::FLAG_END_STREAM) !== 0;
        if ($data === '' && !$end) {
            $this->guard->unproductive('empty DATA');

            return;
        }
        $stream->received += \strlen($data);
        $stream->unread += \strlen($data);
        if ($stream->expectedLength >= 0 && ($stream->received > $stream->expectedLength || ($end && $stream->received !== $stream->expectedLength))) {
            $this->streamError(new Http2StreamError($streamId, ErrorCode::ProtocolError, "Request body of stream $streamId differs from its content-length"));

            return;
        }
        $this->events[] = new DataReceived($streamId, $data, $end);
        if ($end) {
            $this->remoteEnd($stream);
        }
    }

    /** A whole header block arrived: a new request, trailers, or one to decode and drop. */
    private function headerBlock(): void
    {
        [$streamId, $block, $endStream, $selfDependent] = $this->block->take();
        $tooLarge = false;
        try {
            $headers = $this->decoder->decode($block);
        } catch (HpackException $e) {
            throw new Http2ConnectionError(ErrorCode::CompressionError, $e->getMessage());
        } catch (HeaderListTooLarge) {
            $headers = [];
            $tooLarge = true;
        }
        $stream = $this->streams[$streamId] ?? null;
        if ($stream !== null) {
            $this->trailers($stream, $headers, $endStream, $tooLarge);

            return;
        }
        if ($streamId <= $this->lastStreamId) {
            // A stream closed (by a reset, in flight): decoded for the table's sake, then dropped.
            $this->closedStreamFrame($streamId, 'HEADERS');

            return;
        }
        if ($streamId % 2 === 0) {
            throw new Http2ConnectionError(ErrorCode::ProtocolError, "Client opened even-numbered stream $streamId");
        }
        $this->lastStreamId = $streamId;
        if ($this->goAwayId >= 0 || $this->peerGoAway) {
            $this->closedStreams->add($streamId, StreamClosure::Ours);

            return;
        }
        $this->guard->progress();
        if (\count($this->streams) >= $this->settings->maxConcurrentStreams) {
            $this->out->control(FrameWriter::rstStream($streamId, ErrorCode::RefusedStream));
            $this->closedStreams->add($streamId, StreamClosure::Ours);
            $this->guard->reset("stream $streamId beyond SETTINGS_MAX_CONCURRENT_STREAMS");

            return;
        }
        $stream = new Stream($streamId, $this->out->peerInitialWindow, $this->settings->initialWindowSize);
        $this->streams[$streamId] = $stream;
        if ($tooLarge) {
            // RFC 9113 §10.5.1: answered 431; the client may still be sending its body.
            $stream->responded = true;
            $stream->endQueued = true;
            $stream->remoteEnded = $endStream;
            $this->out->head($streamId, [[':status', '431']], true);
            if (!$endStream) {
                $this->out->frame(FrameWriter::rstStream($streamId, ErrorCode::NoError));
            }
            $this->close($stream);
            $this->closedStreams->add($streamId, StreamClosure::Ours);
            $this->guard->reset("request head of stream $streamId over SETTINGS_MAX_HEADER_LIST_SIZE");

            return;
        }
        try {
            if ($selfDependent) {
                throw new Http2StreamError($streamId, ErrorCode::ProtocolError, "Stream $streamId depends on itself");
            }
            $stream->expectedLength = RequestHeaders::check($streamId, $headers, false);
        } catch (Http2StreamError $e) {
            $this->close($stream);
            $this->closedStreams->add($streamId, StreamClosure::Ours);
            $this->out->control(FrameWriter::rstStream($streamId, $e->errorCode));
            $this->guard->reset($e->getMessage());

            return;
        }
        if ($endStream && $stream->expectedLength > 0) {
            $this->close($stream);
            $this->closedStreams->add($streamId, StreamClosure::Ours);
            $this->out->frame(FrameWriter::rstStream($streamId, ErrorCode::ProtocolError));
            $this->guard->reset("stream $streamId ended before its content-length");

            return;
        }
        $this->events[] = new StreamOpened($streamId, $headers, $endStream);
        if ($endStream) {
            $this->remoteEnd($stream);
        }
    }

    /** @param list<array{string, string}> $headers */
    private function trailers(Stream $stream, array $headers, bool $endStream, bool $tooLarge): void
    {
        try {
            if ($stream->remoteEnded) {
                throw new Http2StreamError($stream->id, ErrorCode::StreamClosed, "HEADERS after END_STREAM on stream {$stream->id}");
            }
            if (!$endStream || $tooLarge) {
                throw new Http2StreamError($stream->id, ErrorCode::ProtocolError, "Trailers of stream {$stream->id} without END_STREAM or too large");
            }
            RequestHeaders::check($stream->id, $headers, true);
            if ($stream->expectedLength >= 0 && $stream->received !== $stream->expectedLength) {
                throw new Http2StreamError($stream->id, ErrorCode::ProtocolError, "Request body of stream {$stream->id} differs from its content-length");
            }
        } catch (Http2StreamError $e) {
            $this->streamError($e);

            return;
        }
        $this->events[] = new TrailersReceived($stream->id, $headers);
        $this->remoteEnd($stream);
    }

    private function onRstStream(int $streamId, string $payload): void
    {
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null) {
            if ($streamId > $this->lastStreamId) {
                throw new Http2ConnectionError(ErrorCode::ProtocolError, "RST_STREAM on idle stream $streamId");
            }
            $this->guard->unproductive('RST_STREAM on a closed stream');

            return;
        }
        $code = ErrorCode::fromWire(self::uint32($payload));
        $this->close($stream);
        $this->closedStreams->add($streamId, StreamClosure::PeerReset);
        $this->events[] = new StreamReset($streamId, $code, true);
        $this->guard->reset("stream $streamId reset by the client");
    }

    private function onSettings(int $flags, string $payload): void
    {
        if ($flags & FrameParser::FLAG_ACK) {
            if (!$this->settingsReceived) {
                throw new Http2ConnectionError(ErrorCode::ProtocolError, 'The client preface must start with SETTINGS');
            }
            if (!$this->settingsAcked) {
                // Our SETTINGS_HEADER_TABLE_SIZE binds the peer's encoder from now on.
                $this->settingsAcked = true;
                $this->decoder->setMaxTableSize($this->settings->headerTableSize);
            }

            return;
        }
        if ($this->settingsReceived) {
            $this->guard->unproductive('SETTINGS');
        }
        $this->settingsReceived = true;
        for ($o = 0, $n = \strlen($payload); $o < $n; $o += 6) {
            $id = (\ord($payload[$o]) << 8) | \ord($payload[$o + 1]);
            $value = self::uint32($payload, $o + 2);
            switch ($id) {
                case 0x1:
                    $this->out->encoder->setPeerTableSize($value);
                    break;
                case 0x2:
                    if ($value > 1) {
                        throw new Http2ConnectionError(ErrorCode::ProtocolError, "SETTINGS_ENABLE_PUSH of $value");
                    }
                    break;
                case 0x4:
                    if ($value > self::MAX_WINDOW) {
                        throw new Http2ConnectionError(ErrorCode::FlowControlError, "SETTINGS_INITIAL_WINDOW_SIZE of $value");
                    }
                    $delta = $value - $this->out->peerInitialWindow;
                    $this->out->peerInitialWindow = $value;
                    foreach ($this->streams as $stream) {
                        $stream->sendWindow += $delta;
                        if ($stream->sendWindow > self::MAX_WINDOW) {
                            throw new Http2ConnectionError(ErrorCode::FlowControlError, 'SETTINGS_INITIAL_WINDOW_SIZE overflows a stream window');
                        }
                    }
                    break;
                case 0x5:
                    if ($value < 16384 || $value > 16777215) {
                        throw new Http2ConnectionError(ErrorCode::ProtocolError, "SETTINGS_MAX_FRAME_SIZE of $value");
                    }
                    $this->out->peerMaxFrameSize = $value;
                    break;
            }
        }
        $this->out->control(FrameWriter::settingsAck());
        $this->flushAll();
    }

    private function onGoAway(string $payload): void
    {
        $last = self::uint32($payload);
        $code = self::uint32($payload, 4);
        $this->peerGoAway = true;
        $this->events[] = new GoAwayReceived($last & 0x7fffffff, ErrorCode::fromWire($code), (string) substr($payload, 8, 256));
    }

    private function onWindowUpdate(int $streamId, string $payload): void
    {
        $increment = self::uint32($payload) & 0x7fffffff;
        if ($streamId === 0) {
            if ($increment === 0) {
                throw new Http2ConnectionError(ErrorCode::ProtocolError, 'WINDOW_UPDATE of 0 on the connection');
            }
            if ($this->out->window + $increment > self::MAX_WINDOW) {
                throw new Http2ConnectionError(ErrorCode::FlowControlError, 'Connection window above 2^31-1');
            }
            if ($increment < 1024 && $this->out->queued > $this->out->window + $increment) {
                $this->guard->unproductive('small WINDOW_UPDATE');
            }
            $this->out->window += $increment;
            $this->flushAll();

            return;
        }
        $stream = $this->streams[$streamId] ?? null;
        if ($stream === null) {
            if ($streamId > $this->lastStreamId) {
                throw new Http2ConnectionError(ErrorCode::ProtocolError, "WINDOW_UPDATE on idle stream $streamId");
            }
            $this->guard->unproductive('WINDOW_UPDATE on a closed stream');

            return;
        }
        if ($increment === 0) {
            $this->streamError(new Http2StreamError($streamId, ErrorCode::ProtocolError, "WINDOW_UPDATE of 0 on stream $streamId"));

            return;
        }
        if ($stream->sendWindow + $increment > self::MAX_WINDOW) {
            $this->streamError(new Http2StreamError($streamId, ErrorCode::FlowControlError, "Stream $streamId window above 2^31-1"));

            return;
        }
        if ($increment < 1024 && \strlen($stream->out) > $stream->sendWindow + $increment) {
            $this->guard->unproductive('small WINDOW_UPDATE');
        }
        $stream->sendWindow += $increment;
        if ($this->out->isWaiting($streamId) && $this->out->flush($stream)) {
            $this->localEnd($stream);
        }
    }

    /** After the connection's window grew or the peer's settings changed. */
    private function flushAll(): void
    {
        foreach ($this->out->flushAll() as $stream) {
            $this->localEnd($stream);
        }
    }

    private function localEnd(Stream $stream): void
    {
        $stream->localEnded = true;
        $this->guard->answered();
        if ($stream->remoteEnded) {
            unset($this->streams[$stream->id]);
            $this->closedStreams->add($stream->id, StreamClosure::Ended);
        }
    }

    private function remoteEnd(Stream $stream): void
    {
        $stream->remoteEnded = true;
        if ($stream->localEnded) {
            unset($this->streams[$stream->id]);
            $this->closedStreams->add($stream->id, StreamClosure::Ended);
        }
    }

    /** DATA or HEADERS on a stream id at or below the last one opened that is not open (§5.1, §5.1.1). */
    private function closedStreamFrame(int $streamId, string $type): void
    {
        $how = $this->closedStreams->how($streamId);
        if ($how === StreamClosure::Ended) {
            throw new Http2ConnectionError(ErrorCode::StreamClosed, "$type on stream $streamId after its END_STREAM");
        }
        if ($how === StreamClosure::PeerReset) {
            $this->streamError(new Http2StreamError($streamId, ErrorCode::StreamClosed, "$type on stream $streamId after its RST_STREAM"));

            return;
        }
        if ($how === null && $type === 'HEADERS' && !$this->closedStreams->mayBeForgotten($streamId)) {
            // Never opened: a new stream must have a higher id than every stream before it (§5.1.1).
            throw new Http2ConnectionError(ErrorCode::ProtocolError, "HEADERS on stream $streamId, not above the last stream opened ({$this->lastStreamId})");
        }
        // Frames in flight on a stream we reset, or on one too old to remember: ignored.
        $this->guard->unproductive("$type on a closed stream");
    }

    private function close(Stream $stream): void
    {
        $this->out->drop($stream);
        unset($this->streams[$stream->id]);
    }

    /** A stream error (§5.4.2): RST_STREAM, the driver told, and the reset counted (CVE-2025-8671). */
    private function streamError(Http2StreamError $e): void
    {
        $this->out->control(FrameWriter::rstStream($e->streamId, $e->errorCode));
        $this->closedStreams->add($e->streamId, StreamClosure::Ours);
        $stream = $this->streams[$e->streamId] ?? null;
        if ($stream !== null) {
            $this->close($stream);
            $this->events[] = new StreamReset($e->streamId, $e->errorCode, false);
        }
        $this->guard->reset($e->getMessage());
    }

    private function fail(ErrorCode $code, string $reason): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        $this->out->frame(FrameWriter::goAway($this->lastStreamId, $code, substr($reason, 0, 256)));
        $this->streams = [];
        $this->out->dropAll();
        $this->events[] = new ConnectionError($code, $reason);
    }

    private static function uint32(string $bytes, int $offset = 0): int
    {
        return (\ord($bytes[$offset]) << 24) | (\ord($bytes[$offset + 1]) << 16) | (\ord($bytes[$offset + 2]) << 8) | \ord($bytes[$offset + 3]);
    }
}
