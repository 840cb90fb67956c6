<?php

declare(strict_types=1);

/*
 * The HTTP/2 protocol layer alone, without sockets: requests per second through Http2Session
 * (a browser's GET header block decoded, a small response encoded and framed), and HPACK alone
 * (the same block decoded cold — a new connection, every field a literal — and warm — the fields in
 * the dynamic table — and the response head encoded), and the Huffman decoder against a plain walk
 * of the code tree. Rounds run interleaved; each figure is the median of the rounds.
 *
 *   php -d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=64M \
 *       benchmarks/http2-codec.php [rounds=7] [iterations=20000]
 *
 * ONLY=session (a prefix of the names printed) runs those alone: for counts the machine's noise
 * does not move, run it under callgrind with two iteration counts and take the difference per
 * request, as benchmarks/http-path.php explains.
 */

require __DIR__ . '/../vendor/autoload.php';

use Spindle\Http\Http2\Event\StreamOpened;
use Spindle\Http\Http2\FrameWriter;
use Spindle\Http\Http2\Hpack\HpackDecoder;
use Spindle\Http\Http2\Hpack\HpackEncoder;
use Spindle\Http\Http2\Hpack\Huffman;
use Spindle\Http\Http2\Http2Session;

$rounds = (int) ($argv[1] ?? 7);
$iterations = (int) ($argv[2] ?? 20000);

// What a desktop browser sends for a page (Chrome's fields, a session cookie).
$browser = [
    [':method', 'GET'], [':authority', 'shop.example.com'], [':scheme', 'https'], [':path', '/products/42?ref=home'],
    ['sec-ch-ua', '"Chromium";v="131", "Not_A Brand";v="24"'], ['sec-ch-ua-mobile', '?0'], ['sec-ch-ua-platform', '"Linux"'],
    ['upgrade-insecure-requests', '1'],
    ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'],
    ['accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8'],
    ['sec-fetch-site', 'same-origin'], ['sec-fetch-mode', 'navigate'], ['sec-fetch-user', '?1'], ['sec-fetch-dest', 'document'],
    ['referer', 'https://shop.example.com/'], ['accept-encoding', 'gzip, deflate, br, zstd'], ['accept-language', 'en-US,en;q=0.9'],
    ['cookie', 'session=4f9c2a7e1b8d4c3fa2e6b0d9c8a7f6e5; theme=dark'],
];
$response = [['content-type', 'text/html; charset=UTF-8'], ['content-length', '1234'], ['cache-control', 'no-cache, private'],
    ['date', 'Sat, 28 Nov 2026 16:00:00 GMT'], ['x-frame-options', 'SAMEORIGIN']];
$body = str_repeat('x', 1234);

$client = new HpackEncoder();
$blocks = [];
for ($i = 0; $i < 8; $i++) {
    $blocks[] = $client->encode($browser);
}
if ($blocks[1] !== $blocks[7]) {
    throw new RuntimeException('The browser\'s later blocks differ');
}
$cold = $blocks[0];
$warm = $blocks[7];

$benchmarks = [
    'session: GET in, 200 + 1234-byte body out' => static function (int $n) use ($blocks, $response, $body): void {
        // The browser's blocks: the first all literals, every later one the same table references.
        $first = FrameWriter::headers(1, $blocks[0], true);
        $session = new Http2Session();
        $session->push(Http2Session::PREFACE . FrameWriter::settings([]));
        $session->takeOutput();
        $frames = '';
        for ($id = 1, $i = 0; $i < $n; $i++, $id += 2) {
            $frame = $i === 0 ? $first : FrameWriter::headers($id, $blocks[1], true);
            foreach ($session->push($frame) as $event) {
                if ($event instanceof StreamOpened) {
                    $session->sendHeaders($event->streamId, 200, $response);
                    $session->sendData($event->streamId, $body, true);
                }
            }
            $session->takeOutput();
            if ($i % 40 === 39) {
                // The client's window updates, as a browser reading the bodies sends them.
                $session->push(FrameWriter::windowUpdate(0, 40 * 1234));
            }
        }
    },
    'hpack: decode the browser block, cold' => static function (int $n) use ($cold): void {
        for ($i = 0; $i < $n; $i++) {
            (new HpackDecoder())->decode($cold);
        }
    },
    'hpack: decode the browser block, warm' => static function (int $n) use ($blocks, $warm): void {
        $decoder = new HpackDecoder();
        $decoder->decode($blocks[0]);
        for ($i = 0; $i < $n; $i++) {
            $decoder->decode($warm);
        }
    },
    'hpack: encode the response head' => static function (int $n) use ($response): void {
        $encoder = new HpackEncoder();
        for ($i = 0; $i < $n; $i++) {
            $encoder->encode([[':status', '200'], ...$response]);
        }
    },
];

// Huffman: the user-agent value, table-driven against a walk of the code tree one bit at a time.
$ua = Huffman::encode($browser[8][1]);
$tree = huffmanTree();
$benchmarks['huffman: decode the user-agent (table)'] = static function (int $n) use ($ua): void {
    for ($i = 0; $i < $n; $i++) {
        Huffman::decode($ua);
    }
};
$benchmarks['huffman: decode the user-agent (bit walk)'] = static function (int $n) use ($ua, $tree): void {
    for ($i = 0; $i < $n; $i++) {
        bitWalk($ua, $tree);
    }
};
if (bitWalk($ua, $tree) !== $browser[8][1] || Huffman::decode($ua) !== $browser[8][1]) {
    throw new RuntimeException('The decoders disagree');
}

$only = getenv('ONLY');
if (\is_string($only) && $only !== '') {
    $benchmarks = array_filter($benchmarks, static fn (string $name): bool => str_starts_with($name, $only), ARRAY_FILTER_USE_KEY);
}
$results = [];
for ($r = 0; $r < $rounds; $r++) {
    foreach ($benchmarks as $name => $run) {
        $start = hrtime(true);
        $run($iterations);
        $results[$name][] = $iterations / ((hrtime(true) - $start) / 1e9);
    }
}
printf("PHP %s, JIT %s, %d rounds of %d, median per second:\n", PHP_VERSION, ini_get('opcache.jit') ?: 'off', $rounds, $iterations);
foreach ($results as $name => $perSecond) {
    sort($perSecond);
    printf("  %-46s %10s /s\n", $name, number_format($perSecond[intdiv(\count($perSecond), 2)]));
}

/** @return array<int, int> node << 1 | bit => child node (> 0) or ~symbol */
function huffmanTree(): array
{
    // The code table of RFC 7541 Appendix B, as Huffman holds it.
    $codes = (new ReflectionClassConstant(Huffman::class, 'CODES'))->getValue();
    $lengths = (new ReflectionClassConstant(Huffman::class, 'LENGTHS'))->getValue();
    $tree = [];
    $nodes = 1;
    for ($symbol = 0; $symbol < 256; $symbol++) {
        $code = $codes[$symbol];
        $node = 0;
        for ($b = $lengths[$symbol] - 1; $b > 0; $b--) {
            $slot = ($node << 1) | (($code >> $b) & 1);
            $tree[$slot] ??= $nodes++;
            $node = $tree[$slot];
        }
        $tree[($node << 1) | ($code & 1)] = ~$symbol;
    }

    return $tree;
}

/** @param array<int, int> $tree */
function bitWalk(string $data, array $tree): string
{
    $out = '';
    $node = 0;
    $n = \strlen($data);
    for ($i = 0; $i < $n; $i++) {
        $byte = \ord($data[$i]);
        for ($b = 7; $b >= 0; $b--) {
            $child = $tree[($node << 1) | (($byte >> $b) & 1)] ?? null;
            if ($child === null) {
                return $out; // padding
            }
            if ($child < 0) {
                $out .= \chr(~$child);
                $node = 0;
            } else {
                $node = $child;
            }
        }
    }

    return $out;
}
