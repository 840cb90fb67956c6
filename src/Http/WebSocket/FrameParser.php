<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * RFC 6455 frames in, complete messages and control frames out, with no socket in sight.
 *
 * push() takes whatever bytes arrived and returns the events they complete (a fragmented message
 * comes out once, whole). When the peer breaks the protocol or a limit, push() returns the events
 * before the bad frame, error() tells the ProtocolError (close code and reason) and the parser
 * takes nothing more. After a close frame it ignores whatever follows (RFC 6455 §5.5.1).
 *
 * Rules (RFC 6455 §5): frames from a client must be masked and frames from a server must not be
 * (forServer() / forClient()); RSV bits must be 0 (no extension is negotiated); opcodes 3–7 and
 * 11–15 are reserved; control frames carry at most 125 bytes and are never fragmented; a
 * continuation needs a message to continue and a new text or binary frame must not start inside
 * one; text must be valid UTF-8, checked as each piece arrives, even in the middle of a frame; a
 * close frame has no payload or a valid code and a UTF-8 reason; a 64-bit length must have its
 * top bit clear. Lengths in a longer form than needed (say 5 as a 16-bit length) are accepted, as
 * browsers accept them: they cost nothing and refusing them protects nothing.
 */
final class FrameParser
{
    private string $buffer = '';

    /** Bytes the frame at the start of $buffer needs, header included (0: not known yet). */
    private int $needed = 0;

    /** For the incomplete text frame at the start of $buffer: its header length, mask and the payload bytes already validated. */
    private bool $partialText = false;
    private int $partialHeader = 0;
    private string $partialMask = '';
    private int $partialValidated = 0;

    /** The fragmented message under way: its opcode (0: none), payload so far and frame count. */
    private int $messageOpcode = 0;
    private string $message = '';
    private int $fragments = 0;

    private readonly Utf8Validator $utf8;
    /** The largest unfragmented message no limit can refuse. */
    private readonly int $smallMessage;
    private ?ProtocolError $error = null;
    private bool $closed = false;

    /** Whether the message under way is compressed (permessage-deflate, RSV1 on its first frame). */
    private bool $messageCompressed = false;

    private function __construct(
        private readonly WebSocketLimits $limits,
        private readonly bool $expectMasked,
        private readonly ?Deflater $deflater = null,
    ) {
        $this->utf8 = new Utf8Validator();
        $this->smallMessage = \min($limits->maxFrameBytes, $limits->maxMessageBytes);
    }

    /**
     * A server's parser: the client's frames must be masked. With a Deflater (permessage-deflate
     * was negotiated), RSV1 on a message's first frame marks it compressed.
     */
    public static function forServer(WebSocketLimits $limits = new WebSocketLimits(), ?Deflater $deflater = null): self
    {
        return new self($limits, true, $deflater);
    }

    /** A client's parser: the server's frames must not be masked. */
    public static function forClient(WebSocketLimits $limits = new WebSocketLimits(), ?Deflater $deflater = null): self
    {
        return new self($limits, false, $deflater);
    }

    /** The protocol error that stopped the parser, if any. */
    public function error(): ?ProtocolError
    {
        return $this->error;
    }

    /** Whether a close frame was parsed (what follows it is ignored). */
    public function isClosed(): bool
    {
        return $this->closed;
    }

    /**
     * @return list<Event> the messages and control frames that $bytes complete, in order
     */
    public function push(string $bytes): array
    {
        if ($this->error !== null || $this->closed) {
            return [];
        }
        $this->buffer .= $bytes;
        $length = \strlen($this->buffer);
        if ($length < $this->needed) {
            if ($this->partialText) {
                $this->validatePartial($length);
            }

            return [];
        }
        $events = [];
        $buffer = $this->buffer;
        $pos = 0;
        try {
            while ($length - $pos >= 2) {
                $b0 = \ord($buffer[$pos]);
                $b1 = \ord($buffer[$pos + 1]);
                $opcode = $b0 & 0x0F;
                $fin = ($b0 & 0x80) !== 0;
                $lengthCode = $b1 & 0x7F;
                $this->checkHeader($b0, $b1, $opcode, $fin, $lengthCode);
                if ($lengthCode < 126) {
                    $payloadLength = $lengthCode;
                    $header = 2;
                } elseif ($lengthCode === 126) {
                    if ($length - $pos < 4) {
                        break;
                    }
                    $payloadLength = (\ord($buffer[$pos + 2]) << 8) | \ord($buffer[$pos + 3]);
                    $header = 4;
                } else {
                    if ($length - $pos < 10) {
                        break;
                    }
                    /** @var array{1: int} $unpacked */
                    $unpacked = \unpack('J', $buffer, $pos + 2);
                    $payloadLength = $unpacked[1];
                    if ($payloadLength < 0) {
                        throw new ProtocolError(CloseCode::ProtocolError, 'Frame length has its most significant bit set');
                    }
                    $header = 10;
                }
                if ($this->expectMasked) {
                    $header += 4;
                }
                // A whole small message is within every limit: the limits are 125 bytes at least.
                if ($opcode < 8 && ($opcode === 0 || $payloadLength > $this->smallMessage)) {
                    $this->checkSize($opcode, $payloadLength);
                }
                if ($length - $pos < $header) {
                    break;
                }
                $frameEnd = $pos + $header + $payloadLength;
                if ($frameEnd > $length) {
                    $this->needed = $frameEnd - $pos;
                    $this->partialText = ($opcode === 1 && ($b0 & 0x40) === 0) || ($opcode === 0 && $this->messageOpcode === 1 && !$this->messageCompressed);
                    if ($this->partialText) {
                        $this->partialHeader = $header;
                        $this->partialMask = $this->expectMasked ? \substr($buffer, $pos + $header - 4, 4) : '';
                        $this->partialValidated = 0;
                        $this->buffer = $buffer = \substr($buffer, $pos);
                        $pos = 0;
                        $this->validatePartial($length = \strlen($buffer));
                    }
                    break;
                }
                if ($payloadLength === 0) {
                    $payload = '';
                } elseif ($this->expectMasked) {
                    $payload = \substr($buffer, $pos + $header, $payloadLength)
                        ^ \str_repeat(\substr($buffer, $pos + $header - 4, 4), ($payloadLength >> 2) + 1);
                } else {
                    $payload = \substr($buffer, $pos + $header, $payloadLength);
                }
                $validated = $pos === 0 && $this->partialText ? $this->partialValidated : 0;
                $pos = $frameEnd;
                $this->needed = 0;
                $this->partialText = false;
                $event = $this->frame($opcode, $fin, $payload, $validated, ($b0 & 0x40) !== 0);
                if ($event !== null) {
                    $events[] = $event;
                    if ($this->closed) {
                        break;
                    }
                }
            }
        } catch (ProtocolError $error) {
            $this->error = $error;
            $this->buffer = '';
            $this->message = '';

            return $events;
        }
        if ($this->closed) {
            $this->buffer = '';
        } elseif ($pos > 0) {
            $this->buffer = $pos === $length ? '' : \substr($buffer, $pos);
        }

        return $events;
    }

    /** The checks the first two bytes allow, made before the rest of the frame arrives. */
    private function checkHeader(int $b0, int $b1, int $opcode, bool $fin, int $lengthCode): void
    {
        if (($b0 & 0x70) !== 0 && (($b0 & 0x70) !== 0x40 || $this->deflater === null || ($opcode !== 1 && $opcode !== 2))) {
            throw new ProtocolError(CloseCode::ProtocolError, $this->deflater === null ? 'Reserved bits set without a negotiated extension' : 'Reserved bits set where permessage-deflate allows none');
        }
        if ((($b1 & 0x80) !== 0) !== $this->expectMasked) {
            throw new ProtocolError(CloseCode::ProtocolError, $this->expectMasked ? 'Client frame is not masked' : 'Server frame is masked');
        }
        if ($opcode >= 8) {
            if ($opcode > 10) {
                throw new ProtocolError(CloseCode::ProtocolError, \sprintf('Reserved opcode %d', $opcode));
            }
            if (!$fin) {
                throw new ProtocolError(CloseCode::ProtocolError, 'Fragmented control frame');
            }
            if ($lengthCode > 125) {
                throw new ProtocolError(CloseCode::ProtocolError, 'Control frame payload over 125 bytes');
            }
        } elseif ($opcode === 0) {
            if ($this->messageOpcode === 0) {
                throw new ProtocolError(CloseCode::ProtocolError, 'Continuation frame without a message to continue');
            }
        } elseif ($opcode > 2) {
            throw new ProtocolError(CloseCode::ProtocolError, \sprintf('Reserved opcode %d', $opcode));
        } elseif ($this->messageOpcode !== 0) {
            throw new ProtocolError(CloseCode::ProtocolError, 'New data frame inside a fragmented message');
        }
    }

    private function checkSize(int $opcode, int $payloadLength): void
    {
        if ($payloadLength > $this->limits->maxFrameBytes) {
            throw new ProtocolError(CloseCode::MessageTooBig, \sprintf('Frame of %d bytes over the limit of %d', $payloadLength, $this->limits->maxFrameBytes));
        }
        $messageLength = ($opcode === 0 ? \strlen($this->message) : 0) + $payloadLength;
        if ($messageLength > $this->limits->maxMessageBytes) {
            throw new ProtocolError(CloseCode::MessageTooBig, \sprintf('Message of %d bytes or more over the limit of %d', $messageLength, $this->limits->maxMessageBytes));
        }
        if ($opcode === 0 && $this->fragments >= $this->limits->maxFragments) {
            throw new ProtocolError(CloseCode::MessageTooBig, \sprintf('Message in more than %d fragments', $this->limits->maxFragments));
        }
    }

    /** Validates the part of an incomplete text frame's payload that arrived since the last look. */
    private function validatePartial(int $length): void
    {
        $available = $length - $this->partialHeader;
        if ($available <= $this->partialValidated) {
            return;
        }
        $piece = \substr($this->buffer, $this->partialHeader + $this->partialValidated, $available - $this->partialValidated);
        if ($this->partialMask !== '') {
            $shift = $this->partialValidated & 3;
            $mask = $shift === 0 ? $this->partialMask : \substr($this->partialMask, $shift) . \substr($this->partialMask, 0, $shift);
            $piece ^= \str_repeat($mask, (\strlen($piece) >> 2) + 1);
        }
        $this->partialValidated = $available;
        if (!$this->utf8->push($piece)) {
            $this->error = new ProtocolError(CloseCode::InvalidPayload, 'Invalid UTF-8 in a text message');
            $this->buffer = '';
            $this->message = '';
        }
    }

    /**
     * A complete frame: the event it finishes, if any. $validated payload bytes were checked as
     * UTF-8 already; $rsv1 marks a compressed message's first frame.
     */
    private function frame(int $opcode, bool $fin, string $payload, int $validated, bool $rsv1): ?Event
    {
        if ($opcode < 8 && ($rsv1 || ($opcode === 0 && $this->messageCompressed))) {
            \assert($this->deflater !== null);
            $this->messageCompressed = !$fin;
            $payload = $this->deflater->inflate($payload, $fin, $this->limits->maxMessageBytes - ($opcode === 0 ? \strlen($this->message) : 0));
        }
        switch ($opcode) {
            case 1:
                if ($fin && $validated === 0) {
                    // A whole text message in one frame: one check, no state.
                    if (\preg_match('//u', $payload) !== 1) {
                        throw new ProtocolError(CloseCode::InvalidPayload, 'Invalid UTF-8 in a text message');
                    }

                    return new Event(EventType::Text, $payload);
                }
                if (!$this->utf8->push($validated === 0 ? $payload : \substr($payload, $validated))) {
                    throw new ProtocolError(CloseCode::InvalidPayload, 'Invalid UTF-8 in a text message');
                }
                if ($fin) {
                    return $this->finishText($payload);
                }
                $this->messageOpcode = 1;
                $this->message = $payload;
                $this->fragments = 1;

                return null;
            case 2:
                if ($fin) {
                    return new Event(EventType::Binary, $payload);
                }
                $this->messageOpcode = 2;
                $this->message = $payload;
                $this->fragments = 1;

                return null;
            case 0:
                if ($this->messageOpcode === 1 && !$this->utf8->push($validated === 0 ? $payload : \substr($payload, $validated))) {
                    throw new ProtocolError(CloseCode::InvalidPayload, 'Invalid UTF-8 in a text message');
                }
                $this->message .= $payload;
                ++$this->fragments;
                if (!$fin) {
                    return null;
                }
                $message = $this->message;
                $type = $this->messageOpcode;
                $this->message = '';
                $this->messageOpcode = 0;
                $this->fragments = 0;

                return $type === 1 ? $this->finishText($message) : new Event(EventType::Binary, $message);
            case 8:
                return $this->close($payload);
            case 9:
                return new Event(EventType::Ping, $payload);
            default:
                return new Event(EventType::Pong, $payload);
        }
    }

    private function finishText(string $message): Event
    {
        if (!$this->utf8->isComplete()) {
            throw new ProtocolError(CloseCode::InvalidPayload, 'Text message ends inside a UTF-8 sequence');
        }

        return new Event(EventType::Text, $message);
    }

    private function close(string $payload): Event
    {
        $length = \strlen($payload);
        if ($length === 0) {
            $this->closed = true;

            return new Event(EventType::Close, '', CloseCode::NoStatus->value);
        }
        if ($length === 1) {
            throw new ProtocolError(CloseCode::ProtocolError, 'Close frame payload of 1 byte');
        }
        $code = (\ord($payload[0]) << 8) | \ord($payload[1]);
        if (!CloseCode::isValidOnWire($code)) {
            throw new ProtocolError(CloseCode::ProtocolError, \sprintf('Invalid close code %d', $code));
        }
        $reason = (string) \substr($payload, 2);
        if ($reason !== '' && !Utf8Validator::isValid($reason)) {
            throw new ProtocolError(CloseCode::InvalidPayload, 'Invalid UTF-8 in the close reason');
        }
        $this->closed = true;

        return new Event(EventType::Close, $reason, $code);
    }
}
