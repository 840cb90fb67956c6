<?php

declare(strict_types=1);

namespace Spindle\Server\Peers;

use Revolt\EventLoop;

/**
 * A worker's link to the other workers of its server, through the master (Supervisor\RelayHub):
 * one end of a Unix stream socket pair made for this worker at its fork. What the worker sends
 * goes to the master, which passes it to every other worker; when a worker exits, the master
 * tells the others (RelayKind::Gone). Reading and writing never block the worker; the watchers
 * do not keep the loop running.
 */
final class MasterRelayLink implements PeerLink
{
    /** Bytes waiting for the master past which new messages are dropped (the master reads far faster). */
    private const MAX_PENDING = 32 * 1024 * 1024;
    private const READ_CHUNK = 262144;

    private readonly string $origin;
    private readonly RelayCodec $codec;
    private string $outgoing = '';
    private ?string $writeWatcher = null;
    private readonly string $readWatcher;
    private bool $closed = false;
    /** @var list<array{\Closure(string, string): void, \Closure(string): void, (\Closure(): void)|null}> */
    private array $receivers = [];
    /** Messages dropped because the master did not take them. */
    public int $dropped = 0;

    /** @param resource $stream the worker's end of its relay socket pair */
    public function __construct(private readonly mixed $stream)
    {
        \stream_set_blocking($stream, false);
        \stream_set_write_buffer($stream, 0);
        $this->origin = Origin::make();
        $this->codec = new RelayCodec();
        $this->readWatcher = EventLoop::unreference(EventLoop::onReadable($stream, $this->read(...)));
        $this->write(RelayCodec::encode(RelayKind::Hello, $this->origin));
    }

    public function origin(): string
    {
        return $this->origin;
    }

    public function send(string $message): void
    {
        if ($this->closed) {
            return;
        }
        if (\strlen($this->outgoing) > self::MAX_PENDING) {
            ++$this->dropped;

            return;
        }
        $this->write(RelayCodec::message($this->origin, $message));
    }

    public function listen(\Closure $onMessage, \Closure $onGone, ?\Closure $onClose = null): void
    {
        $this->receivers[] = [$onMessage, $onGone, $onClose];
    }

    public function isConnected(): bool
    {
        return !$this->closed;
    }

    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        EventLoop::cancel($this->readWatcher);
        if ($this->writeWatcher !== null) {
            EventLoop::cancel($this->writeWatcher);
        }
        // The master takes the end of the stream for this worker's end: the others drop its subscriptions.
        @\fclose($this->stream);
        foreach ($this->receivers as [, , $onClose]) {
            if ($onClose !== null) {
                $onClose();
            }
        }
    }

    private function write(string $bytes): void
    {
        $this->outgoing .= $bytes;
        if ($this->writeWatcher === null) {
            $this->flush();
        }
    }

    private function flush(): void
    {
        while ($this->outgoing !== '') {
            $written = @\fwrite($this->stream, $this->outgoing);
            if ($written === false) {
                $this->close();

                return;
            }
            if ($written === 0) {
                break;
            }
            $this->outgoing = (string) \substr($this->outgoing, $written);
        }
        if ($this->outgoing === '' && $this->writeWatcher !== null) {
            EventLoop::cancel($this->writeWatcher);
            $this->writeWatcher = null;
        } elseif ($this->outgoing !== '' && $this->writeWatcher === null) {
            $this->writeWatcher = EventLoop::unreference(EventLoop::onWritable($this->stream, fn () => $this->flush()));
        }
    }

    private function read(): void
    {
        $bytes = @\fread($this->stream, self::READ_CHUNK);
        if ($bytes === false || ($bytes === '' && \feof($this->stream))) {
            $this->close();

            return;
        }
        $this->codec->push($bytes);
        try {
            while (($frame = $this->codec->next()) !== null) {
                if ($frame->kind === RelayKind::Message) {
                    [$origin, $message] = RelayCodec::splitMessage($frame->payload);
                    foreach ($this->receivers as [$onMessage]) {
                        $onMessage($origin, $message);
                    }
                } elseif ($frame->kind === RelayKind::Gone) {
                    foreach ($this->receivers as [, $onGone]) {
                        $onGone($frame->payload);
                    }
                }
            }
        } catch (RelayException) {
            $this->close();
        }
    }
}
