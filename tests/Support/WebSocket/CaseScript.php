<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

use Spindle\Http\WebSocket\FrameEncoder;

/**
 * Builds an AutobahnCase's steps the way the suite's client sends: every frame masked with a key
 * of its own (from a seeded generator, so a run is reproducible), frames written one after the
 * other in one write unless a frame is "sync" (a write of its own) or chopped (written
 * $chop bytes at a time).
 */
final class CaseScript
{
    /** @var list<Step> */
    private array $steps = [];
    private string $buffered = '';
    private bool $bufferedClose = false;
    private int $maskState;

    public function __construct(string $id)
    {
        $this->maskState = \crc32($id);
    }

    /** A client frame (masked): $rsv reserved bits, $chop: written that many bytes at a time, $sync: a write of its own. */
    public function frame(int $opcode, string $payload = '', bool $fin = true, int $rsv = 0, ?int $chop = null, bool $sync = false): self
    {
        return $this->raw(FrameEncoder::frame($opcode, $payload, $fin, $this->nextMask(), $rsv), $chop, $sync);
    }

    /** A message as the suite's sendMessage() sends it: one frame, or frames of $fragmentSize payload bytes. */
    public function message(string $payload, bool $binary = false, int $fragmentSize = 0, ?int $chop = null): self
    {
        $length = \strlen($payload);
        if ($fragmentSize <= 0 || $length <= $fragmentSize) {
            return $this->frame($binary ? 2 : 1, $payload, true, 0, $chop);
        }
        for ($offset = 0; $offset < $length; $offset += $fragmentSize) {
            $this->frame($offset === 0 ? ($binary ? 2 : 1) : 0, \substr($payload, $offset, $fragmentSize), $offset + $fragmentSize >= $length);
        }

        return $this;
    }

    /**
     * The client's close frame (it starts the closing handshake, unlike a frame() with opcode 8):
     * $code null sends none (an empty payload), $reason raw bytes after the code.
     */
    public function close(?int $code = 1000, string $reason = ''): self
    {
        return $this->closeWithPayload($code === null ? '' : \pack('n', $code) . $reason);
    }

    /** The client's close frame with any payload (one byte, say). */
    public function closeWithPayload(string $payload): self
    {
        return $this->raw(FrameEncoder::frame(8, $payload, true, $this->nextMask()), null, false, true);
    }

    /** Bytes written as given (part of a frame, several frames). */
    public function raw(string $bytes, ?int $chop = null, bool $sync = false, bool $closes = false): self
    {
        if ($chop === null && !$sync) {
            $this->buffered .= $bytes;
            $this->bufferedClose = $this->bufferedClose || $closes;

            return $this;
        }
        $this->flush();
        $chunks = $chop === null ? [$bytes] : \str_split($bytes, \max(1, $chop));
        foreach ($chunks as $i => $chunk) {
            $this->steps[] = Step::send($chunk, $closes && $i === 0);
        }

        return $this;
    }

    public function pause(float $seconds, ?string $label = null): self
    {
        $this->flush();
        $this->steps[] = Step::pause($seconds, $label);

        return $this;
    }

    /** Waits until $total messages (counted from the start of the case) have come back. */
    public function awaitMessages(int $total, float $seconds = 10.0): self
    {
        $this->flush();
        $this->steps[] = Step::awaitMessages($total, $seconds);

        return $this;
    }

    /**
     * One masked frame cut into separate writes: the header with the payload up to the first of
     * $payloadCuts, then the payload between cuts (the suite's sendMessageFrameData()).
     *
     * @param list<int> $payloadCuts payload offsets, ascending
     *
     * @return list<string>
     */
    public function frameChunks(int $opcode, string $payload, array $payloadCuts, bool $fin = true): array
    {
        $frame = FrameEncoder::frame($opcode, $payload, $fin, $this->nextMask());
        $header = \strlen($frame) - \strlen($payload);
        $chunks = [];
        $from = 0;
        foreach ([...$payloadCuts, \strlen($payload)] as $cut) {
            $to = $header + $cut;
            $chunks[] = \substr($frame, $from, $to - $from);
            $from = $to;
        }

        return $chunks;
    }

    /** @return list<Step> */
    public function steps(): array
    {
        $this->flush();

        return $this->steps;
    }

    private function flush(): void
    {
        if ($this->buffered !== '') {
            $this->steps[] = Step::send($this->buffered, $this->bufferedClose);
            $this->buffered = '';
            $this->bufferedClose = false;
        }
    }

    private function nextMask(): string
    {
        // xorshift32: a fixed sequence of mask keys per case.
        $x = $this->maskState ?: 0x9E3779B9;
        $x ^= ($x << 13) & 0xFFFFFFFF;
        $x ^= $x >> 17;
        $x ^= ($x << 5) & 0xFFFFFFFF;
        $this->maskState = $x;

        return \pack('N', $x);
    }
}
