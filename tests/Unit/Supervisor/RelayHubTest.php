<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Spindle\Server\Peers\RelayCodec;
use Spindle\Server\Peers\RelayKind;
use Spindle\Supervisor\RelayHub;

/** The master's relay between workers, over real socket pairs (no fork): what one worker sends reaches the others, and a worker gone is announced. */
final class RelayHubTest extends TestCase
{
    /** @var array<int, resource> the workers' ends, by pid */
    private array $workers = [];
    private RelayHub $hub;

    protected function setUp(): void
    {
        $this->hub = new RelayHub(new NullLogger());
        foreach ([101, 102, 103] as $pid) {
            $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
            self::assertIsArray($pair);
            $this->hub->add($pid, $pair[0]);
            \stream_set_blocking($pair[1], false);
            $this->workers[$pid] = $pair[1];
            \fwrite($pair[1], RelayCodec::encode(RelayKind::Hello, 'origin-' . $pid));
        }
        $this->pump();
    }

    public function testAMessageReachesEveryOtherWorkerUnchanged(): void
    {
        $frame = RelayCodec::message('origin-101', '{"t":"send"}');
        // Written in two pieces: the hub waits for the whole frame.
        \fwrite($this->workers[101], \substr($frame, 0, 7));
        $this->pump();
        self::assertSame('', $this->received(102));
        \fwrite($this->workers[101], \substr($frame, 7));
        $this->pump();
        self::assertSame($frame, $this->received(102));
        self::assertSame($frame, $this->received(103));
        self::assertSame('', $this->received(101));
        self::assertSame(2, $this->hub->relayed);
    }

    public function testAWorkerGoneOrClosingItsRelayIsAnnounced(): void
    {
        $this->hub->remove(102);
        self::assertSame(RelayCodec::encode(RelayKind::Gone, 'origin-102'), $this->received(101));
        self::assertSame(RelayCodec::encode(RelayKind::Gone, 'origin-102'), $this->received(103));
        // A worker that stops closes its end: the hub sees the end of the stream.
        \fclose($this->workers[103]);
        $this->pump();
        self::assertSame(RelayCodec::encode(RelayKind::Gone, 'origin-103'), $this->received(101));
        self::assertCount(1, $this->hub->readStreams());
    }

    public function testGarbageClosesOnlyThatWorkersRelay(): void
    {
        \fwrite($this->workers[103], "\xff\xff\xff\xffjunk");
        $this->pump();
        self::assertSame(RelayCodec::encode(RelayKind::Gone, 'origin-103'), $this->received(101));
        self::assertSame(RelayCodec::encode(RelayKind::Gone, 'origin-103'), $this->received(102));
        $frame = RelayCodec::message('origin-101', 'still here');
        \fwrite($this->workers[101], $frame);
        $this->pump();
        self::assertSame($frame, $this->received(102));
    }

    private function pump(): void
    {
        $read = $this->hub->readStreams();
        $write = $this->hub->writeStreams() ?: null;
        $except = null;
        if ($read !== [] && \stream_select($read, $write, $except, 0, 100_000) > 0) {
            $this->hub->poll($read, $write ?? []);
        }
    }

    private function received(int $pid): string
    {
        return (string) \fread($this->workers[$pid], 1 << 20);
    }
}
