<?php

declare(strict_types=1);

namespace Spindle\Server;

use Revolt\EventLoop;
use Spindle\Server\Channel\BootFailed;
use Spindle\Server\Channel\Exiting;
use Spindle\Server\Channel\MessageCodec;
use Spindle\Server\Channel\Ready;
use Spindle\Server\Channel\Report;
use Spindle\Server\Channel\Retire;
use Spindle\Server\Channel\WorkerMessage;

/**
 * The worker's end of its channel to the master (one end of a unix socket pair): the worker
 * writes its messages (Channel\WorkerMessage: ready, report, retire, boot-error, exiting,
 * metrics), one line each as Channel\MessageCodec encodes them; the master reads them with the
 * same codec.
 *
 * The master writes nothing; its end closing (end of file when reading, a broken pipe when
 * writing) means it is gone, and the worker must not outlive it.
 */
final class ChannelToMaster
{
    private bool $closed = false;
    private bool $ready = false;
    private bool $retired = false;
    private ?string $watchId = null;
    /** @var (\Closure(): void)|null */
    private ?\Closure $onClosed = null;
    private readonly MessageCodec $codec;

    /** @param resource $stream */
    public function __construct(private readonly mixed $stream)
    {
        $this->codec = new MessageCodec();
        \stream_set_blocking($stream, false);
    }

    public function isClosed(): bool
    {
        return $this->closed;
    }

    /**
     * Calls $onClosed (from the loop, once) when the master's end closes. Watching does not keep
     * the loop running.
     *
     * @param \Closure(): void $onClosed
     */
    public function onClosed(\Closure $onClosed): void
    {
        $this->onClosed = $onClosed;
        if ($this->closed) {
            EventLoop::queue($onClosed);

            return;
        }
        $this->watchId ??= EventLoop::unreference(EventLoop::onReadable($this->stream, $this->onReadable(...)));
    }

    /** Stops watching the channel (the worker is done with the loop). */
    public function detach(): void
    {
        if ($this->watchId !== null) {
            EventLoop::cancel($this->watchId);
            $this->watchId = null;
        }
        $this->onClosed = null;
    }

    /** The worker accepts connections. */
    public function ready(): bool
    {
        $this->ready = true;

        return $this->send(new Ready());
    }

    /** The periodic report; it is also the worker's heartbeat. */
    public function report(int $requests, int $inflight, int $connections, int $memory, int $peak, float $lag, int $dbBusy = 0, int $dbIdle = 0, int $dbWaiting = 0, int $webSockets = 0): bool
    {
        return $this->send(new Report($requests, $inflight, $connections, $memory, $peak, $lag, $dbBusy, $dbIdle, $dbWaiting, $webSockets));
    }

    /** Asks to be replaced, once; the worker keeps serving until the master sends SIGTERM. */
    public function retire(RetireReason $reason): bool
    {
        if ($this->retired) {
            return false;
        }
        $this->retired = true;

        return $this->send(new Retire($reason));
    }

    /**
     * A request ended the process (exit(), a fatal error): the worker accepts no more, finishes
     * its $inflight other requests and exits. The master starts its replacement now.
     */
    public function exiting(ExitCause $cause, int $requests, int $inflight): bool
    {
        return $this->send(new Exiting($cause, $requests, $inflight));
    }

    /** Booting failed: tells the master why. Nothing is sent once the worker was ready. */
    public function bootFailed(\Throwable $e): bool
    {
        if ($this->ready) {
            return false;
        }

        return $this->send(new BootFailed(\get_class($e) . ': ' . $e->getMessage()));
    }

    /**
     * Writes one message, blocking until it is written (messages are small and the master is
     * local). Returns false, and treats the master as gone, when the write fails.
     *
     * @throws \InvalidArgumentException when the message cannot be encoded (see MessageCodec)
     */
    public function send(WorkerMessage $message): bool
    {
        if ($this->closed) {
            return false;
        }
        $line = $this->codec->encode($message);
        \stream_set_blocking($this->stream, true);
        try {
            while ($line !== '') {
                $written = @\fwrite($this->stream, $line);
                if ($written === false || $written === 0) {
                    $this->lost();

                    return false;
                }
                $line = (string) \substr($line, $written);
            }
        } finally {
            if (\is_resource($this->stream)) {
                \stream_set_blocking($this->stream, false);
            }
        }

        return true;
    }

    private function onReadable(): void
    {
        // The master sends nothing today: read and drop, looking for the end of the stream.
        $data = @\fread($this->stream, 8192);
        if ($data === false || ($data === '' && \feof($this->stream))) {
            $this->lost();
        }
    }

    private function lost(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        if ($this->watchId !== null) {
            EventLoop::cancel($this->watchId);
            $this->watchId = null;
        }
        if ($this->onClosed !== null) {
            EventLoop::queue($this->onClosed);
        }
    }
}
