<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Loop;

use PHPUnit\Framework\TestCase;
use Spindle\Loop\Driver\Epoll\EpollException;
use Spindle\Loop\Driver\Epoll\StreamDescriptors;
use Spindle\Loop\EventLoopKind;

final class StreamDescriptorsTest extends TestCase
{
    private StreamDescriptors $descriptors;

    protected function setUp(): void
    {
        $problem = EventLoopKind::epollProblem();
        if ($problem !== null) {
            self::markTestSkipped($problem);
        }
        $this->descriptors = StreamDescriptors::load();
    }

    public function testFindsTheDescriptorOfSocketsFilesPipesAndServers(): void
    {
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        self::assertIsArray($pair);
        $file = \fopen(__FILE__, 'r');
        $server = \stream_socket_server('tcp://127.0.0.1:0');
        $process = \proc_open(['cat'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
        self::assertIsResource($file);
        self::assertIsResource($server);
        self::assertIsResource($process);
        foreach ([$pair[0], $pair[1], $file, $server, $pipes[0], $pipes[1], \STDIN] as $stream) {
            $fd = $this->descriptors->of($stream);
            $stat = \fstat($stream);
            self::assertIsArray($stat);
            // The descriptor is the stream's own file: the same inode, and the same for sockets.
            $link = (string) \readlink('/proc/self/fd/' . $fd);
            self::assertSame($stat['ino'], \fstat(\fopen('php://fd/' . $fd, 'r') ?: \STDERR)['ino'] ?? null, $link);
        }
        \fclose($pipes[0]);
        \fclose($pipes[1]);
        \proc_close($process);
    }

    public function testRefusesAClosedStreamAndOneWithoutADescriptor(): void
    {
        $memory = \fopen('php://memory', 'r+');
        self::assertIsResource($memory);
        try {
            $this->descriptors->of($memory);
            self::fail('php://memory has no descriptor');
        } catch (EpollException $e) {
            self::assertStringContainsString('no descriptor', $e->getMessage());
        }
        $file = \fopen(__FILE__, 'r');
        self::assertIsResource($file);
        \fclose($file);
        $this->expectException(EpollException::class);
        $this->descriptors->of($file);
    }
}
