<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http;

use PHPUnit\Framework\TestCase;
use Spindle\Http\BodyMemory;
use Spindle\Http\Clock;
use Spindle\Http\HttpException;
use Spindle\Http\HttpLimits;
use Spindle\Http\Peer;
use Spindle\Http\Request;
use Spindle\Http\Http1\RequestAssembler;

/**
 * Where a request body is kept while it arrives: in memory up to --body-buffer-size while the
 * worker's BodyMemory has room, else in a temporary file; whole either way, at any split point.
 */
final class RequestAssemblerTest extends TestCase
{
    private string $dir;
    /** @var list<array{Request, list<string>, int}> */
    private array $requests = [];

    protected function setUp(): void
    {
        $this->dir = \sys_get_temp_dir() . '/spindle-assembler-' . \bin2hex(\random_bytes(4));
        \mkdir($this->dir);
    }

    protected function tearDown(): void
    {
        foreach (\glob($this->dir . '/*') ?: [] as $file) {
            \unlink($file);
        }
        \rmdir($this->dir);
    }

    private function assembler(BodyMemory $memory, int $bufferSize = 100, ?Clock $clock = null): RequestAssembler
    {
        return new RequestAssembler(
            new HttpLimits(bodyBufferSize: $bufferSize),
            $this->dir,
            static function (): void {},
            function (Request $request, array $tempFiles, bool $keepAlive): void {
                // What the request's body holds of the worker's memory: its length when in memory.
                $this->requests[] = [$request, $tempFiles, \strlen($request->body)];
            },
            new Peer('127.0.0.1', 50000, '127.0.0.1', 80),
            memory: $memory,
            clock: $clock ?? new Clock(),
        );
    }

    /** @return list<string> */
    private function files(): array
    {
        return \glob($this->dir . '/*') ?: [];
    }

    public function testABodyUpToTheBufferSizeStaysInMemoryAndHoldsItsBytes(): void
    {
        $memory = new BodyMemory(1000);
        $assembler = $this->assembler($memory);
        $assembler->push("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n" . \str_repeat('a', 60));
        self::assertSame(60, $memory->used);
        $assembler->push(\str_repeat('b', 40));
        [$request, $tempFiles, $held] = $this->requests[0];
        self::assertSame(\str_repeat('a', 60) . \str_repeat('b', 40), $request->body);
        self::assertNull($request->bodyFile());
        self::assertSame([], $tempFiles);
        self::assertSame(100, $held, 'the request holds its bytes until its taker gives them back');
        self::assertSame(100, $memory->used);
        self::assertSame([], $this->files());
    }

    /** @return iterable<string, array{string, string}> */
    public static function framings(): iterable
    {
        $body = \random_bytes(1000);
        yield 'Content-Length' => ["POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n" . $body, $body];
        $chunked = '';
        foreach (\str_split($body, 70) as $piece) {
            $chunked .= \dechex(\strlen($piece)) . "\r\n" . $piece . "\r\n";
        }
        yield 'chunked' => ["POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" . $chunked . "0\r\n\r\n", $body];
    }

    /** @dataProvider framings */
    public function testALargerBodyGoesToATemporaryFileWholeAtAnySplitPoint(string $wire, string $body): void
    {
        foreach ([1, 7, 99, 100, 101, 4096] as $split) {
            $memory = new BodyMemory(1 << 20);
            $this->requests = [];
            $assembler = $this->assembler($memory);
            foreach (\str_split($wire, $split) as $piece) {
                $assembler->push($piece);
            }
            self::assertCount(1, $this->requests, "split {$split}");
            [$request, $tempFiles, $held] = $this->requests[0];
            self::assertSame('', $request->body);
            $file = $request->bodyFile();
            self::assertIsString($file);
            self::assertSame([$file], $tempFiles, 'removed with the request');
            self::assertSame($body, \file_get_contents($file), "split {$split}");
            self::assertSame($body, $request->bodyContents());
            self::assertSame($body, \stream_get_contents($request->openBody()));
            self::assertSame(0, $held);
            self::assertSame(0, $memory->used, 'memory held before the body went to its file is given back');
            \unlink($file);
        }
    }

    public function testABodyGoesToAFileWhenTheWorkersMemoryForBodiesIsTaken(): void
    {
        $memory = new BodyMemory(150);
        $first = $this->assembler($memory);
        $second = $this->assembler($memory);
        $first->push("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n" . \str_repeat('a', 100));
        self::assertSame(100, $memory->used);
        $second->push("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 80\r\n\r\n" . \str_repeat('b', 30));
        self::assertSame(130, $memory->used);
        // 50 more do not fit in 150: what the body had goes to a file with them.
        $second->push(\str_repeat('c', 50));
        [$request, , $held] = $this->requests[1];
        $file = $request->bodyFile();
        self::assertIsString($file);
        self::assertSame(\str_repeat('b', 30) . \str_repeat('c', 50), \file_get_contents($file));
        self::assertSame(0, $held);
        self::assertSame(100, $memory->used);
    }

    public function testAnAbortedBodyLeavesNoFileAndGivesItsMemoryBack(): void
    {
        $memory = new BodyMemory(1000);
        $assembler = $this->assembler($memory);
        $assembler->push("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 500\r\n\r\n" . \str_repeat('a', 50));
        self::assertSame(50, $memory->used);
        $assembler->abort();
        self::assertSame(0, $memory->used);

        $assembler = $this->assembler($memory);
        $assembler->push("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 500\r\n\r\n" . \str_repeat('a', 300));
        self::assertCount(1, $this->files());
        $assembler->abort();
        self::assertSame([], $this->files());
        self::assertSame(0, $memory->used);
    }

    public function testAFormBodyInAFileIsParsed(): void
    {
        $form = 'name=spindle&pad=' . \str_repeat('x', 500);
        $assembler = $this->assembler(new BodyMemory(1000));
        $assembler->push("POST / HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " . \strlen($form) . "\r\n\r\n" . $form);
        $request = $this->requests[0][0];
        self::assertIsString($request->bodyFile());
        self::assertSame(['name' => 'spindle', 'pad' => \str_repeat('x', 500)], $request->parsedBody);
    }

    public function testAFormBodyInAFileThatIsRefusedLeavesNoFile(): void
    {
        $form = \implode('&', \array_map(static fn (int $i): string => "v{$i}=1", \range(1, 1001)));
        $memory = new BodyMemory(100000);
        $assembler = $this->assembler($memory);
        try {
            $assembler->push("POST / HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " . \strlen($form) . "\r\n\r\n" . $form);
            self::fail('more than 1000 variables are refused');
        } catch (HttpException $e) {
            self::assertSame(413, $e->status);
        }
        self::assertSame([], $this->files());
        self::assertSame(0, $memory->used);
    }

    public function testTheBodysStartAndBytesSoFarAreKeptForItsRate(): void
    {
        $clock = new Clock(1000.0);
        $assembler = $this->assembler(new BodyMemory(1000), 100, $clock);
        $assembler->push("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 50\r\n\r\n");
        $clock->now = 1003.0;
        $assembler->push('0123456789');
        self::assertSame(1000.0, $assembler->bodyStartedAt);
        self::assertSame(10, $assembler->bodyReceived);
    }
}
