<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

use Spindle\Http\Http2\Hpack\HpackEncoder;

/**
 * The sending half of an Http2Session: the bytes owed to the peer, response heads through the
 * HPACK encoder (in the order they go out: blocks must reach the peer in the order they were
 * encoded), and response bodies queued per stream and released as the peer's flow-control windows
 * allow (RFC 9113 §5.2, §6.9), with the bounds the app's writer is held to.
 *
 * Fields the session reads and writes on every WINDOW_UPDATE and SETTINGS are public, as Stream's.
 *
 * @internal
 */
final class Outbound
{
    public const MAX_WINDOW = 0x7fffffff;
    private const TOKEN = "abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~";
    /** Response fields HTTP/2 forbids (§8.2.2), dropped from what the app sets. */
    private const DROPPED = ['connection' => true, 'keep-alive' => true, 'proxy-connection' => true, 'transfer-encoding' => true, 'upgrade' => true];

    /** The peer's connection window for our DATA. */
    public int $window = 65535;
    /** Response bytes queued over all streams. */
    public int $queued = 0;
    /** The peer's SETTINGS_INITIAL_WINDOW_SIZE and SETTINGS_MAX_FRAME_SIZE. */
    public int $peerInitialWindow = 65535;
    public int $peerMaxFrameSize = 16384;

    /**
     * Response field names checked before, up to 512 per process: strspn() compares each byte with
     * each of the 51 token characters, and checking five names that way took 8 % of a request's
     * instructions through the session (callgrind, benchmarks/http2-codec.php).
     *
     * @var array<string, true>
     */
    private static array $names = [];

    private string $output = '';
    /** @var array<int, Stream> Streams with body bytes or trailers waiting for window. */
    private array $waiting = [];
    /** @var array<int, true> Streams told to wait, owed a WindowOpened. */
    private array $blocked = [];

    public function __construct(
        private readonly Http2Settings $settings,
        public readonly HpackEncoder $encoder,
        private readonly FloodGuard $guard,
    ) {
    }

    public function frame(string $bytes): void
    {
        $this->output .= $bytes;
    }

    /** A control frame we owe the peer: bounded while the driver does not take our output. */
    public function control(string $frame): void
    {
        $this->output .= $frame;
        $this->guard->control();
    }

    public function take(): string
    {
        $out = $this->output;
        $this->output = '';
        $this->guard->outputTaken();

        return $out;
    }

    public function has(): bool
    {
        return $this->output !== '';
    }

    /** @param list<array{string, string}> $fields */
    public function head(int $streamId, array $fields, bool $endStream): void
    {
        $this->output .= FrameWriter::headers($streamId, $this->encoder->encode($fields), $endStream, $this->peerMaxFrameSize);
    }

    /**
     * A response head's fields, :status first; names in lower case, connection-specific ones dropped.
     *
     * @param iterable<array{string, string}> $headers
     * @return list<array{string, string}>
     * @throws \UnexpectedValueException a name that is not a token or a value with CR, LF or NUL
     *     (as the HTTP/1.1 serializer: the driver answers 500)
     */
    public static function fields(int $status, iterable $headers): array
    {
        $fields = [[':status', (string) $status]];
        $values = '';
        foreach ($headers as [$name, $value]) {
            $name = strtolower($name);
            if (isset(self::DROPPED[$name])) {
                continue;
            }
            if (!isset(self::$names[$name])) {
                if ($name === '' || strspn($name, self::TOKEN) !== \strlen($name)) {
                    throw new \UnexpectedValueException(\sprintf('Invalid response header name "%s"', addcslashes($name, "\0..\37\177..\377")));
                }
                if (\count(self::$names) < 512) {
                    self::$names[$name] = true;
                }
            }
            $fields[] = [$name, $value];
            $values .= $value;
        }
        // One pass over all values (memchr), as the HTTP/1.1 serializer does.
        if (str_contains($values, "\n") || str_contains($values, "\r") || str_contains($values, "\0")) {
            foreach ($fields as [$name, $value]) {
                if (strcspn($value, "\r\n\0") !== \strlen($value)) {
                    throw new \UnexpectedValueException(\sprintf('Invalid value for response header "%s"', $name));
                }
            }
        }

        return $fields;
    }

    public function canSend(Stream $stream): bool
    {
        return \strlen($stream->out) < $this->settings->streamOutputLimit && $this->queued < $this->settings->connectionOutputLimit;
    }

    /** The stream's writer was told to wait: it is owed a WindowOpened. */
    public function block(int $streamId): void
    {
        $this->blocked[$streamId] = true;
    }

    /**
     * The held-back writers that may go on now.
     *
     * @param array<int, Stream> $streams the open streams
     * @return list<int>
     */
    public function unblocked(array $streams): array
    {
        $ids = [];
        foreach ($this->blocked as $id => $_) {
            if (!isset($streams[$id])) {
                unset($this->blocked[$id]);
            } elseif ($this->canSend($streams[$id])) {
                unset($this->blocked[$id]);
                $ids[] = $id;
            }
        }

        return $ids;
    }

    public function hasBlocked(): bool
    {
        return $this->blocked !== [];
    }

    /** Body bytes for the stream: sent as far as the windows allow, the rest queued. True when END_STREAM went out. */
    public function data(Stream $stream, string $data, bool $endStream): bool
    {
        $stream->endQueued = $endStream;
        $stream->out = $stream->out === '' ? $data : $stream->out . $data;
        $this->queued += \strlen($data);

        return $this->flush($stream);
    }

    /**
     * Trailers end the stream after its queued body. True when they went out.
     *
     * @param list<array{string, string}> $fields
     */
    public function trailers(Stream $stream, array $fields): bool
    {
        $stream->trailers = $fields;
        $stream->endQueued = true;

        return $this->flush($stream);
    }

    /**
     * Sends what the windows allow of the stream's queued bytes, then its end (trailers or
     * END_STREAM). True when the stream's end went out.
     */
    public function flush(Stream $stream): bool
    {
        $out = $stream->out;
        if ($out !== '') {
            $length = \strlen($out);
            $sent = 0;
            $max = $this->peerMaxFrameSize;
            while ($sent < $length) {
                $room = min($stream->sendWindow, $this->window, $max);
                if ($room <= 0) {
                    break;
                }
                $chunk = $sent === 0 && $room >= $length ? $out : substr($out, $sent, $room);
                $n = \strlen($chunk);
                $sent += $n;
                $stream->sendWindow -= $n;
                $this->window -= $n;
                $end = $sent === $length && $stream->endQueued && $stream->trailers === null;
                $this->output .= FrameWriter::frame(0x0, $end ? 0x1 : 0, $stream->id, $chunk);
            }
            $this->queued -= $sent;
            $stream->out = $sent === $length ? '' : substr($out, $sent);
            if ($stream->out !== '') {
                $this->waiting[$stream->id] = $stream;

                return false;
            }
            if ($stream->endQueued && $stream->trailers === null) {
                unset($this->waiting[$stream->id]);

                return true;
            }
        }
        unset($this->waiting[$stream->id]);
        if ($stream->trailers !== null) {
            $this->head($stream->id, $stream->trailers, true);
            $stream->trailers = null;

            return true;
        }
        if ($stream->endQueued && !$stream->localEnded) {
            $this->output .= FrameWriter::frame(0x0, 0x1, $stream->id, '');

            return true;
        }

        return false;
    }

    /**
     * After the connection window grew: every waiting stream, in turn.
     *
     * @return list<Stream> the streams whose end went out
     */
    public function flushAll(): array
    {
        $ended = [];
        foreach ($this->waiting as $stream) {
            if ($this->window <= 0) {
                break;
            }
            if ($this->flush($stream)) {
                $ended[] = $stream;
            }
        }

        return $ended;
    }

    public function isWaiting(int $streamId): bool
    {
        return isset($this->waiting[$streamId]);
    }

    /** A stream closed: what it had queued is dropped. */
    public function drop(Stream $stream): void
    {
        $this->queued -= \strlen($stream->out);
        $stream->out = '';
        unset($this->waiting[$stream->id]);
    }

    public function dropAll(): void
    {
        $this->waiting = [];
        $this->blocked = [];
        $this->queued = 0;
    }
}
