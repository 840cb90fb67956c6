<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Psr\Log\LoggerInterface;
use Spindle\Server\Peers\RelayCodec;
use Spindle\Server\Peers\RelayException;
use Spindle\Server\Peers\RelayKind;

/**
 * The master's side of the relay between workers (Server\Peers\MasterRelayLink is the worker's):
 * a Unix stream socket pair per worker, made at its fork. A Message frame from one worker is
 * written, unchanged, to every other worker; a worker's first frame (Hello) names its origin, and
 * when the worker is gone the others get a Gone frame with it. The master never blocks on a worker:
 * what a worker has not read yet waits in a buffer, bounded per worker (past it, frames for that
 * worker are dropped and counted, and a warning is logged).
 */
final class RelayHub
{
    private const READ_CHUNK = 262144;
    /** Bytes waiting for one worker past which frames for it are dropped. */
    private const MAX_PENDING = 64 * 1024 * 1024;

    /** @var array<int, resource> */
    private array $streams = [];
    /** @var array<int, RelayCodec> */
    private array $codecs = [];
    /** @var array<int, string> */
    private array $pending = [];
    /** @var array<int, string> */
    private array $origins = [];
    /** @var array<int, int> frames dropped per worker since the last warning */
    private array $dropped = [];
    /** Frames passed on to workers. */
    public int $relayed = 0;

    public function __construct(private readonly LoggerInterface $logger)
    {
    }

    /** @param resource $stream the master's end of a new worker's relay pair */
    public function add(int $pid, mixed $stream): void
    {
        \stream_set_blocking($stream, false);
        \stream_set_write_buffer($stream, 0);
        $this->streams[$pid] = $stream;
        $this->codecs[$pid] = new RelayCodec();
        $this->pending[$pid] = '';
    }

    /** Worker $pid is gone (or closed its relay): its relay is closed and the others are told. */
    public function remove(int $pid): void
    {
        if (!isset($this->streams[$pid])) {
            return;
        }
        $stream = $this->streams[$pid];
        unset($this->streams[$pid]);
        @\fclose($stream);
        $origin = $this->origins[$pid] ?? null;
        unset($this->streams[$pid], $this->codecs[$pid], $this->pending[$pid], $this->origins[$pid], $this->dropped[$pid]);
        if ($origin !== null) {
            $this->toOthers($pid, RelayCodec::encode(RelayKind::Gone, $origin));
        }
    }

    /** @return list<resource> */
    public function readStreams(): array
    {
        return \array_values($this->streams);
    }

    /** @return list<resource> the relays with bytes waiting to be written */
    public function writeStreams(): array
    {
        $streams = [];
        foreach ($this->pending as $pid => $bytes) {
            if ($bytes !== '') {
                $streams[] = $this->streams[$pid];
            }
        }

        return $streams;
    }

    /**
     * Reads the relays among $readable and writes to those among $writable (what a select() found).
     *
     * @param array<mixed> $readable
     * @param array<mixed> $writable
     */
    public function poll(array $readable, array $writable): void
    {
        foreach ($this->streams as $pid => $stream) {
            if (\in_array($stream, $readable, true)) {
                $this->read($pid);
            }
        }
        foreach ($this->streams as $pid => $stream) {
            if (\in_array($stream, $writable, true)) {
                $this->flush($pid);
            }
        }
        foreach ($this->dropped as $pid => $count) {
            $this->logger->warning(\sprintf('Worker %d does not read its relay: %d message%s for it dropped', $pid, $count, $count === 1 ? '' : 's'));
        }
        $this->dropped = [];
    }

    /** Closes every relay (in a forked worker: they are the master's). */
    public function forgetAll(): void
    {
        foreach ($this->streams as $stream) {
            @\fclose($stream);
        }
        $this->streams = $this->codecs = $this->pending = $this->origins = $this->dropped = [];
    }

    private function read(int $pid): void
    {
        $stream = $this->streams[$pid];
        $codec = $this->codecs[$pid];
        $ended = false;
        for ($i = 0; $i < 16; ++$i) {
            $bytes = @\fread($stream, self::READ_CHUNK);
            if (!\is_string($bytes) || $bytes === '') {
                $ended = !\is_string($bytes) || \feof($stream);
                break;
            }
            $codec->push($bytes);
        }
        try {
            while (($frame = $codec->next()) !== null) {
                match ($frame->kind) {
                    RelayKind::Hello => $this->origins[$pid] = $frame->payload,
                    RelayKind::Message => $this->toOthers($pid, $frame->bytes),
                    RelayKind::Gone => null,
                };
            }
        } catch (RelayException $e) {
            $this->logger->warning(\sprintf('Worker %d wrote no relay frame (%s): its relay is closed', $pid, $e->getMessage()));
            $ended = true;
        }
        if ($ended) {
            // The worker closed its relay (it stops) or wrote garbage: it leaves its peers now.
            $this->remove($pid);
        }
    }

    private function toOthers(int $from, string $bytes): void
    {
        foreach ($this->streams as $pid => $stream) {
            if ($pid === $from) {
                continue;
            }
            if (\strlen($this->pending[$pid]) > self::MAX_PENDING) {
                $this->dropped[$pid] = ($this->dropped[$pid] ?? 0) + 1;
                continue;
            }
            $this->pending[$pid] .= $bytes;
            ++$this->relayed;
            $this->flush($pid);
        }
    }

    private function flush(int $pid): void
    {
        while ($this->pending[$pid] !== '') {
            $written = @\fwrite($this->streams[$pid], $this->pending[$pid]);
            if ($written === false || $written === 0) {
                return;
            }
            $this->pending[$pid] = (string) \substr($this->pending[$pid], $written);
        }
    }
}
