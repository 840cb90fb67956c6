<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Psr\Log\LoggerInterface;
use Spindle\Server\Channel\MalformedMessage;
use Spindle\Server\Channel\MessageCodec;
use Spindle\Server\Channel\WorkerMessage;

/**
 * The master's ends of its workers' channels, by pid, each with its own MessageCodec: what a
 * worker wrote comes out as typed messages. A line that is no message is logged (a warning
 * naming the worker) and skipped; the messages around it still count, and the master goes on.
 */
final class WorkerChannels
{
    /** How much one read takes from a channel. */
    private const READ_CHUNK = 65536;

    /** @var array<int, resource> */
    private array $streams = [];
    /** @var array<int, MessageCodec> */
    private array $codecs = [];

    public function __construct(private readonly LoggerInterface $logger)
    {
    }

    /** @param resource $stream the master's end of a new worker's channel */
    public function add(int $pid, mixed $stream): void
    {
        \stream_set_blocking($stream, false);
        $this->streams[$pid] = $stream;
        $this->codecs[$pid] = new MessageCodec();
    }

    public function has(int $pid): bool
    {
        return isset($this->streams[$pid]);
    }

    /** @return list<resource> every channel, to wait on */
    public function streams(): array
    {
        return \array_values($this->streams);
    }

    /**
     * The messages of the channels among $readable (streams a select() found readable).
     *
     * @param array<mixed> $readable
     *
     * @return array<int, list<WorkerMessage>> by pid
     */
    public function readable(array $readable): array
    {
        $messages = [];
        foreach ($this->streams as $pid => $stream) {
            if (\in_array($stream, $readable, true)) {
                $messages[$pid] = $this->read($pid);
            }
        }

        return $messages;
    }

    /**
     * One read of $pid's channel (it does not wait): the whole messages it completed.
     *
     * @return list<WorkerMessage>
     */
    public function read(int $pid): array
    {
        $stream = $this->streams[$pid] ?? null;
        if ($stream === null) {
            return [];
        }
        $data = @\fread($stream, self::READ_CHUNK);
        if (!\is_string($data) || $data === '') {
            return [];
        }
        $codec = $this->codecs[$pid];
        $codec->push($data);
        $messages = [];
        while (true) {
            try {
                $message = $codec->next();
            } catch (MalformedMessage $e) {
                $this->logger->warning(\sprintf('Worker %d sent a malformed message (ignored): %s', $pid, $e->getMessage()));
                continue;
            }
            if ($message === null) {
                return $messages;
            }
            $messages[] = $message;
        }
    }

    /**
     * The worker is gone: what it wrote last (a boot error), then its channel is closed.
     *
     * @return list<WorkerMessage>
     */
    public function close(int $pid): array
    {
        if (!isset($this->streams[$pid])) {
            return [];
        }
        $messages = $this->read($pid);
        if ($this->codecs[$pid]->hasPartialLine()) {
            $this->logger->warning(\sprintf('Worker %d\'s channel ended in the middle of a message (ignored)', $pid));
        }
        @\fclose($this->streams[$pid]);
        unset($this->streams[$pid], $this->codecs[$pid]);

        return $messages;
    }

    /** In a forked worker: lets go of its siblings' channels (the master keeps them). */
    public function forgetAll(): void
    {
        foreach ($this->streams as $stream) {
            @\fclose($stream);
        }
        $this->streams = [];
        $this->codecs = [];
    }
}
