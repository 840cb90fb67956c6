<?php

declare(strict_types=1);

/*
 * The WebSocket codec without a socket (src/Http/WebSocket): frames parsed and encoded per second
 * for small text messages (a Pusher protocol event, 100–300 bytes of JSON) and for 64 KiB binary
 * ones. Each measure runs ROUNDS times, interleaved with the others, and prints the median.
 *
 *   php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M \
 *       benchmarks/websocket-codec.php [rounds=5] [seconds per measure=0.5]
 *
 * - parse small, 1 frame a read: FrameParser::forServer()->push() of one masked 200-byte text frame
 *   (UTF-8 checked), the usual case of a browser sending an event.
 * - parse small, 32 frames a read: the same frames arriving back to back.
 * - parse 64 KiB binary, 1 a read / in 1460-byte reads: unmasking; the second as TCP segments bring it.
 * - encode small text / 64 KiB binary: FrameEncoder::text() / binary() (server frames, unmasked).
 * - session echo small: WebSocketSession::receive() of one frame, sendText() of its payload,
 *   takeOutput(): the whole per-message cost of an echo connection in the codec; the same with
 *   permessage-deflate (PerMessageDeflate's defaults: no context takeover, so zlib contexts are
 *   made for each message and the same compressed frame can be sent again and again), and with
 *   context takeover (the contexts kept, about 300 KiB a connection).
 */

use Spindle\Http\WebSocket\Deflater;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\PerMessageDeflate;
use Spindle\Http\WebSocket\WebSocketLimits;
use Spindle\Http\WebSocket\WebSocketSession;

require __DIR__ . '/../vendor/autoload.php';

$rounds = (int) ($argv[1] ?? 5);
$seconds = (float) ($argv[2] ?? 0.5);

$small = '{"event":"App\\\\Events\\\\OrderShipped","channel":"private-orders.42","data":"{\\"order\\":{\\"id\\":42,\\"status\\":\\"shipped\\",\\"carrier\\":\\"Höfner & Söhne\\",\\"eta\\":\\"2026-11-30T10:00:00Z\\"}}"}';
$small = \str_pad($small, 200, ' ');
$big = \random_bytes(65536);
$mask = "\x5a\xc3\x19\x7e";
$smallFrame = FrameEncoder::frame(1, $small, true, $mask);
$smallBatch = \str_repeat($smallFrame, 32);
$bigFrame = FrameEncoder::frame(2, $big, true, $mask);
$bigSegments = \str_split($bigFrame, 1460);
$limits = new WebSocketLimits();

/** Runs $body (which handles $perCall frames) for $seconds; frames per second. */
$measure = static function (callable $body, int $perCall) use ($seconds): float {
    $calls = 0;
    $start = \hrtime(true);
    $deadline = $start + (int) ($seconds * 1e9);
    do {
        for ($i = 0; $i < 100; ++$i) {
            $body();
        }
        $calls += 100;
        $now = \hrtime(true);
    } while ($now < $deadline);

    return $calls * $perCall / (($now - $start) / 1e9);
};

$parser = FrameParser::forServer($limits);
$session = new WebSocketSession($limits);
$deflate = (new PerMessageDeflate())->negotiate(['permessage-deflate']);
\assert($deflate !== null);
$deflateSession = new WebSocketSession($limits, null, $deflate);
// With context takeover: the compressed frame made by a fresh context refers to nothing before
// it, so it inflates the same whatever the session's inflater saw before.
$takeover = (new PerMessageDeflate(false, false))->negotiate(['permessage-deflate']);
\assert($takeover !== null);
$takeoverSession = new WebSocketSession($limits, null, $takeover);
$compressedFrame = FrameEncoder::frame(1, (new Deflater($deflate))->deflate($small), true, $mask, 4);
$measures = [
    'parse small text, 1 frame a read' => [static function () use ($parser, $smallFrame): void {
        $parser->push($smallFrame);
    }, 1, \strlen($small)],
    'parse small text, 32 frames a read' => [static function () use ($parser, $smallBatch): void {
        $parser->push($smallBatch);
    }, 32, \strlen($small)],
    'parse 64 KiB binary, 1 frame a read' => [static function () use ($parser, $bigFrame): void {
        $parser->push($bigFrame);
    }, 1, 65536],
    'parse 64 KiB binary, in 1460-byte reads' => [static function () use ($parser, $bigSegments): void {
        foreach ($bigSegments as $segment) {
            $parser->push($segment);
        }
    }, 1, 65536],
    'encode small text' => [static function () use ($small): void {
        FrameEncoder::text($small);
    }, 1, \strlen($small)],
    'encode 64 KiB binary' => [static function () use ($big): void {
        FrameEncoder::binary($big);
    }, 1, 65536],
    'session echo small text (receive, sendText, takeOutput)' => [static function () use ($session, $smallFrame): void {
        foreach ($session->receive($smallFrame) as $event) {
            $session->sendText($event->payload);
        }
        $session->takeOutput();
    }, 1, \strlen($small)],
    'session echo small text, permessage-deflate' => [static function () use ($deflateSession, $compressedFrame): void {
        foreach ($deflateSession->receive($compressedFrame) as $event) {
            $deflateSession->sendText($event->payload);
        }
        $deflateSession->takeOutput();
    }, 1, \strlen($small)],
    'session echo small text, permessage-deflate, context takeover' => [static function () use ($takeoverSession, $compressedFrame): void {
        foreach ($takeoverSession->receive($compressedFrame) as $event) {
            $takeoverSession->sendText($event->payload);
        }
        $takeoverSession->takeOutput();
    }, 1, \strlen($small)],
];

// Sanity: every measure does what it says.
$check = FrameParser::forServer($limits);
\assert(\count($check->push($smallBatch)) === 32);
if ($parser->push($bigFrame)[0]->payload !== $big || $session->receive($smallFrame)[0]->payload !== $small
    || $deflateSession->receive($compressedFrame)[0]->payload !== $small
    || $takeoverSession->receive($compressedFrame)[0]->payload !== $small || $takeoverSession->receive($compressedFrame)[0]->payload !== $small) {
    throw new \RuntimeException('The codec does not round-trip the benchmark frames');
}
$session->takeOutput();
$deflateSession->takeOutput();
$takeoverSession->takeOutput();

$results = [];
for ($round = 0; $round < $rounds; ++$round) {
    foreach ($measures as $name => [$body, $perCall]) {
        $results[$name][] = $measure($body, $perCall);
    }
}
\printf("PHP %s, JIT %s, %d rounds of %.1f s, median:\n", \PHP_VERSION, (\function_exists('opcache_get_status') && (\opcache_get_status(false)['jit']['on'] ?? false)) ? 'on' : 'off', $rounds, $seconds);
foreach ($results as $name => $rates) {
    \sort($rates);
    $median = $rates[\intdiv(\count($rates), 2)];
    $bytes = $measures[$name][2];
    \printf("  %-58s %12s frames/s  %8.1f MB/s payload  (%.2f µs a frame)\n", $name, \number_format($median), $median * $bytes / 1e6, 1e6 / $median);
}
