<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Http2;

use Spindle\Http\Http2\FrameParser;
use Spindle\Http\Http2\FrameWriter;
use Spindle\Http\Http2\Hpack\HpackDecoder;
use Spindle\Http\Http2\Hpack\HpackEncoder;
use Spindle\Http\Http2\Http2Session;

/**
 * The client side for the session's tests: writes a client's frames with Spindle's own frame writer
 * and encoder, and reads the session's output back into frames (headers decoded). The cross-check
 * with an independent client is Http2CrossCheckTest's.
 */
final class Peer
{
    /** @var list<array{type: int, flags: int, stream: int, payload: string, headers?: list<array{string, string}>}> */
    public array $frames = [];
    private readonly HpackEncoder $encoder;
    private readonly HpackDecoder $decoder;
    private readonly FrameParser $parser;
    private ?int $blockIndex = null;

    public function __construct()
    {
        $this->encoder = new HpackEncoder();
        $this->decoder = new HpackDecoder();
        $this->parser = new FrameParser(function (int $type, int $flags, int $stream, string $payload): void {
            if ($type === 0x9 && $this->blockIndex !== null) {
                $this->frames[$this->blockIndex]['payload'] .= $payload;
                $flags |= $this->frames[$this->blockIndex]['flags'] & 0x1;
                $this->frames[$this->blockIndex]['flags'] = $flags;
            } else {
                $this->frames[] = ['type' => $type, 'flags' => $flags, 'stream' => $stream, 'payload' => $payload];
                $this->blockIndex = $type === 0x1 ? \count($this->frames) - 1 : null;
            }
            if (($type === 0x1 || $type === 0x9) && $flags & 0x4 && $this->blockIndex !== null) {
                $this->frames[$this->blockIndex]['headers'] = $this->decoder->decode($this->frames[$this->blockIndex]['payload']);
                $this->blockIndex = null;
            }
        }, 16777215);
    }

    public static function preface(array $settings = []): string
    {
        return Http2Session::PREFACE . FrameWriter::settings($settings);
    }

    /** @param list<array{string, string}> $headers */
    public function headers(int $stream, array $headers, bool $end = true): string
    {
        return FrameWriter::headers($stream, $this->encoder->encode($headers), $end);
    }

    /** @param list<array{string, string}> $extra */
    public function get(int $stream, string $path = '/', array $extra = [], bool $end = true): string
    {
        return $this->headers($stream, array_merge([[':method', 'GET'], [':scheme', 'https'], [':path', $path], [':authority', 'example.com']], $extra), $end);
    }

    public function encode(array $headers): string
    {
        return $this->encoder->encode($headers);
    }

    /** Reads the session's output; returns the frames read by this call. */
    public function read(Http2Session $session): array
    {
        $before = \count($this->frames);
        $this->parser->push($session->takeOutput());

        return \array_slice($this->frames, $before);
    }

    /** @return list<array{type: int, flags: int, stream: int, payload: string, headers?: list<array{string, string}>}> */
    public function ofType(int $type, ?int $stream = null): array
    {
        return array_values(array_filter($this->frames, static fn (array $f): bool => $f['type'] === $type && ($stream === null || $f['stream'] === $stream)));
    }

    /** The body the session sent on a stream, and whether it ended. */
    public function body(int $stream): string
    {
        return implode('', array_column($this->ofType(0x0, $stream), 'payload'));
    }

    public function ended(int $stream): bool
    {
        foreach ($this->frames as $f) {
            if ($f['stream'] === $stream && ($f['type'] === 0x0 || $f['type'] === 0x1) && $f['flags'] & 0x1) {
                return true;
            }
        }

        return false;
    }

    /** The RST_STREAM codes the session sent, by stream. @return array<int, int> */
    public function resets(): array
    {
        $codes = [];
        foreach ($this->ofType(0x3) as $f) {
            $codes[$f['stream']] = unpack('N', $f['payload'])[1];
        }

        return $codes;
    }

    /** The GOAWAY's error code, or null. */
    public function goAwayCode(): ?int
    {
        $frames = $this->ofType(0x7);

        return $frames === [] ? null : unpack('N', $frames[\count($frames) - 1]['payload'], 4)[1];
    }
}
