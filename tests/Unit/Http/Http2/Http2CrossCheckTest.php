<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\Http2;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Http2\Event\ConnectionError;
use Spindle\Http\Http2\Event\DataReceived;
use Spindle\Http\Http2\Event\StreamOpened;
use Spindle\Http\Http2\Event\StreamReset;
use Spindle\Http\Http2\Event\TrailersReceived;
use Spindle\Http\Http2\Hpack\HpackDecoder;
use Spindle\Http\Http2\Hpack\HpackEncoder;
use Spindle\Http\Http2\Http2Session;

/**
 * The session and HPACK against an independent implementation: python-hyper's h2 and hpack
 * (Debian's python3-h2), driven by tests/fixtures/http2/h2peer.py as a subprocess. h2's client
 * makes the requests the session must read; h2's client reads the responses the session writes.
 */
final class Http2CrossCheckTest extends TestCase
{
    private const PYTHON = '/usr/bin/python3';

    /** @var resource|null */
    private static $process = null;
    /** @var array<int, resource> */
    private static array $pipes = [];

    public static function setUpBeforeClass(): void
    {
        $check = shell_exec(self::PYTHON . ' -c "import h2, hpack; print(h2.__version__)" 2>&1');
        if (!\is_string($check) || !preg_match('/^\d+\.\d+/', $check)) {
            self::fail('python3-h2 is required (scripts/test installs it): ' . $check);
        }
        $process = proc_open([self::PYTHON, __DIR__ . '/../../../fixtures/http2/h2peer.py'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], self::$pipes);
        self::assertIsResource($process);
        self::$process = $process;
    }

    public static function tearDownAfterClass(): void
    {
        foreach (self::$pipes as $pipe) {
            fclose($pipe);
        }
        if (self::$process !== null) {
            proc_close(self::$process);
        }
    }

    /** @return array<string, mixed> */
    private function call(array $command): array
    {
        fwrite(self::$pipes[0], json_encode($command, JSON_THROW_ON_ERROR) . "\n");
        $line = fgets(self::$pipes[1]);
        self::assertIsString($line, 'h2peer.py answered');

        return json_decode($line, true, 512, JSON_THROW_ON_ERROR);
    }

    public function testRequestsFromH2AndResponsesReadByH2(): void
    {
        $made = $this->call(['op' => 'requests']);
        $bytes = base64_decode($made['out']);
        $session = new Http2Session();
        $seen = [];
        mt_srand(17);
        for ($o = 0; $o < \strlen($bytes); $o += $n) {
            $n = mt_rand(1, 3000);
            foreach ($session->push(substr($bytes, $o, $n)) as $event) {
                self::assertNotInstanceOf(ConnectionError::class, $event, $event instanceof ConnectionError ? $event->reason : '');
                self::assertNotInstanceOf(StreamReset::class, $event);
                $id = $event->streamId;
                if ($event instanceof StreamOpened) {
                    $seen[$id] = ['headers' => $event->headers, 'body' => '', 'trailers' => null, 'ended' => $event->endStream];
                } elseif ($event instanceof DataReceived) {
                    $seen[$id]['body'] .= $event->data;
                    $seen[$id]['ended'] = $event->endStream;
                    $session->consumed($id, \strlen($event->data));
                } elseif ($event instanceof TrailersReceived) {
                    $seen[$id]['trailers'] = $event->headers;
                    $seen[$id]['ended'] = true;
                }
            }
        }
        self::assertCount(4, $made['requests']);
        foreach ($made['requests'] as $request) {
            $id = $request['stream'];
            self::assertSame($request['headers'], $seen[$id]['headers'], "stream $id's headers");
            self::assertSame(base64_decode($request['body']), $seen[$id]['body'], "stream $id's body");
            self::assertSame($request['trailers'], $seen[$id]['trailers'], "stream $id's trailers");
            self::assertTrue($seen[$id]['ended']);
        }

        // The answers, read by h2's client (which opens its windows as it reads).
        $large = random_bytes(100000);
        $session->sendInformational(1, 103, [['link', '</app.css>; rel=preload; as=style']]);
        $session->sendHeaders(1, 200, [['content-type', 'text/plain'], ['x-served-by', 'spindle']]);
        $session->sendData(1, 'Hello, h2', true);
        $session->sendHeaders(3, 201, [['content-type', 'application/octet-stream'], ['content-length', '100000']]);
        $session->sendData(3, $large, true);
        $session->sendHeaders(5, 200, [['x-large', str_repeat('L', 30000)], ['set-cookie', 'session=secret']]);
        $session->sendData(5, '', true);
        $session->sendHeaders(7, 200, [['content-type', 'text/plain']]);
        $session->sendData(7, 'streamed ');
        $session->sendData(7, 'body');
        $session->sendTrailers(7, [['x-checksum', 'def456']]);

        $got = [];
        for ($round = 0; $round < 100 && $session->hasOutput(); $round++) {
            $answer = $this->call(['op' => 'feed', 'data' => base64_encode($session->takeOutput())]);
            foreach ($answer['events'] as $event) {
                $id = $event['stream'] ?? 0;
                match ($event['type']) {
                    'informational' => $got[$id]['informational'][] = $event['headers'],
                    'response' => $got[$id]['headers'] = $event['headers'],
                    'data' => $got[$id]['body'] = ($got[$id]['body'] ?? '') . base64_decode($event['data']),
                    'trailers' => $got[$id]['trailers'] = $event['headers'],
                    'ended' => $got[$id]['ended'] = true,
                    'reset', 'goaway' => self::fail('h2 saw ' . json_encode($event)),
                    default => null,
                };
            }
            foreach ($session->push(base64_decode($answer['out'])) as $event) {
                self::assertNotInstanceOf(ConnectionError::class, $event);
            }
        }
        self::assertSame([[[':status', '103'], ['link', '</app.css>; rel=preload; as=style']]], $got[1]['informational']);
        self::assertSame([[':status', '200'], ['content-type', 'text/plain'], ['x-served-by', 'spindle']], $got[1]['headers']);
        self::assertSame('Hello, h2', $got[1]['body']);
        self::assertSame([[':status', '201'], ['content-type', 'application/octet-stream'], ['content-length', '100000']], $got[3]['headers']);
        self::assertSame(bin2hex($large), bin2hex($got[3]['body'] ?? ''), 'the 100 KB body, through flow control');
        self::assertSame([[':status', '200'], ['x-large', str_repeat('L', 30000)], ['set-cookie', 'session=secret']], $got[5]['headers']);
        self::assertSame('streamed body', $got[7]['body']);
        self::assertSame([['x-checksum', 'def456']], $got[7]['trailers']);
        foreach ([1, 3, 5, 7] as $id) {
            self::assertTrue($got[$id]['ended'] ?? false, "stream $id ended");
        }
        self::assertSame(0, $session->activeStreams());
    }

    /** @return iterable<string, array{string}> */
    public static function attacks(): iterable
    {
        yield 'Rapid Reset' => ['rapid-reset'];
        yield 'PING flood' => ['ping-flood'];
        yield 'SETTINGS flood' => ['settings-flood'];
    }

    /** @dataProvider attacks */
    public function testAttacksWrittenByH2EndInAGoAwayH2Reads(string $kind): void
    {
        $bytes = base64_decode($this->call(['op' => 'attack', 'kind' => $kind, 'count' => 1500])['out']);
        $session = new Http2Session();
        $opened = 0;
        $end = null;
        foreach (str_split($bytes, 4096) as $piece) {
            foreach ($session->push($piece) as $event) {
                $opened += $event instanceof StreamOpened ? 1 : 0;
                $end = $event instanceof ConnectionError ? $event : $end;
            }
        }
        self::assertInstanceOf(ConnectionError::class, $end);
        self::assertLessThanOrEqual(101, $opened);
        // The session's answer, as the attacking h2 client reads it.
        $answer = $this->call(['op' => 'feed', 'data' => base64_encode($session->takeOutput())]);
        $goAways = array_values(array_filter($answer['events'], static fn (array $e): bool => $e['type'] === 'goaway'));
        self::assertSame(0xb, $goAways[0]['code'] ?? null, 'GOAWAY(ENHANCE_YOUR_CALM)');
    }

    public function testHpackBlocksFromPythonsEncoderDecodeTheSame(): void
    {
        $answer = $this->call(['op' => 'hpack-encode', 'seed' => 42, 'count' => 300]);
        $decoder = new HpackDecoder();
        foreach ($answer['blocks'] as $i => $block) {
            self::assertSame($answer['lists'][$i], $decoder->decode(base64_decode($block)), "block $i");
        }
    }

    public function testOurBlocksDecodeTheSameInPythonsDecoder(): void
    {
        $lists = $this->call(['op' => 'random-lists', 'seed' => 43, 'count' => 300])['lists'];
        $encoder = new HpackEncoder();
        $blocks = [];
        foreach ($lists as $i => $list) {
            if ($i === 150) {
                $encoder->setPeerTableSize(256);
            }
            $blocks[] = base64_encode($encoder->encode($list));
        }
        self::assertSame($lists, $this->call(['op' => 'hpack-decode', 'blocks' => $blocks])['lists']);
    }
}
