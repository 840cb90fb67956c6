<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
use Spindle\Http\ConnectionClosed;
use Spindle\Http\ConnectionDriver;
use Spindle\Http\ConnectionEvents;
use Spindle\Http\ConnectionServices;
use Spindle\Http\ErrorAnswer;
use Spindle\Http\Expiring;
use Spindle\Http\FileBody;
use Spindle\Http\Http2\Event\ConnectionError;
use Spindle\Http\Http2\Event\DataReceived;
use Spindle\Http\Http2\Event\GoAwayReceived;
use Spindle\Http\Http2\Event\StreamOpened;
use Spindle\Http\Http2\Event\StreamReset;
use Spindle\Http\Http2\Event\TrailersReceived;
use Spindle\Http\Http2\Event\WindowOpened;
use Spindle\Http\HttpException;
use Spindle\Http\Peer;
use Spindle\Http\Request;
use Spindle\Http\RequestOwner;
use Spindle\Http\Response;
use Spindle\Http\SocketOutput;
use Spindle\Http\RunningRequest;
use Spindle\Http\Status;
use Spindle\Loop\TaskCancelled;

/**
 * The connection driver of an HTTP/2 connection (h2c by prior knowledge today): moves bytes
 * between its socket and its Http2Session (the sans-I/O protocol), and runs every stream as a
 * request of its own through the worker's RequestRunner, with the same --concurrency slots,
 * request timeout, middleware (access log, metrics) and error answers as HTTP/1.1.
 *
 * A stream's request is assembled by the HTTP/1.1 request assembler from its fields and DATA
 * (StreamRequests): form and multipart bodies, uploads to temporary files, --max-body-size and
 * the worker's body memory are the same, and so is the Request the app sees, but for its
 * protocol version ("2.0"). A stream's writer waits while the peer's flow-control window (or the
 * session's bound on queued output) holds it back; a stream the peer resets has its task
 * cancelled where it waits.
 *
 * Over 500 lines: the socket's reading and writing, the streams' tasks, the RequestOwner answers
 * (timeout, abandon, interim) and the three kinds of response body share the stream maps; the
 * request assembly (StreamRequests) and the protocol (Http2Session) are their own classes.
 */
final class Http2Connection implements ConnectionDriver, Expiring, RequestOwner
{
    private const READ_SIZE = 65536;
    /** Bytes of a body handed to the session at a time, so that its output bounds apply. */
    private const DATA_PIECE = 16384;
    /** Seconds a draining connection waits for its streams' ends after its GOAWAY. */
    private const DRAIN_GRACE = 5.0;

    private readonly Http2Session $session;
    private readonly StreamRequests $assembly;
    private readonly string $readId;
    private readonly SocketOutput $output;
    private bool $closed = false;
    private bool $readPaused = false;
    private float $lastActiveAt;
    private float $drainEnds = \INF;
    private float $checkAt = \INF;
    /** @var array<int, RunningRequest> the requests under way, by stream id */
    private array $running = [];
    /** @var array<int, int> stream id by the object id of its RunningRequest */
    private array $streamOf = [];
    /** @var array<int, true> streams whose response head went out */
    private array $begun = [];
    /** @var array<int, Suspension<null>> writers waiting for their stream's window, by stream id */
    private array $writers = [];

    /** @param resource $socket */
    public function __construct(
        private readonly mixed $socket,
        private readonly ConnectionServices $set,
        private readonly ConnectionEvents $events,
        private readonly Peer $peer,
        string $readAhead = '',
        Http2Settings $settings = new Http2Settings(),
    ) {
        $this->session = new Http2Session($settings);
        $this->assembly = new StreamRequests($set, $peer, $this->onRequest(...), $this);
        $this->lastActiveAt = $set->clock->tick();
        $this->output = new SocketOutput($socket, $set->clock, $this->onDrained(...), $this->close(...));
        $this->readId = EventLoop::onReadable($socket, $this->onReadable(...));
        $this->flush();
        if ($readAhead !== '') {
            $this->onBytes($readAhead);
        }
        $this->checkBy($this->nextDeadline());
    }

    public function drain(): void
    {
        if ($this->closed) {
            return;
        }
        $this->session->goAway();
        $this->flush();
        $this->drainEnds = $this->set->clock->tick() + self::DRAIN_GRACE;
        $this->closeIfDone();
        $this->checkBy($this->drainEnds);
    }

    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        $this->set->timeouts->forget($this);
        EventLoop::cancel($this->readId);
        $this->output->close();
        @\fclose($this->socket);
        $this->assembly->abortAll();
        foreach ($this->writers as $writer) {
            $writer->throw(new ConnectionClosed('The client closed the connection'));
        }
        $this->writers = [];
        foreach ($this->running as $run) {
            $this->set->requests->tasks()->cancel($run->context, new TaskCancelled('The client closed the HTTP/2 connection'));
        }
        $this->events->closed($this);
    }

    public function isClosed(): bool
    {
        return $this->closed;
    }

    public function waitingSince(): ?float
    {
        if ($this->closed || $this->running !== [] || $this->session->activeStreams() > 0 || $this->output->buffered() !== 0) {
            return null;
        }

        return $this->lastActiveAt;
    }

    public function expireTimeouts(float $now): void
    {
        $this->checkAt = \INF;
        if ($this->closed) {
            return;
        }
        if ($this->output->buffered() !== 0 && $now - $this->output->lastWriteAt > $this->set->limits->bodyTimeout) {
            $this->close();

            return;
        }
        if ($now >= $this->drainEnds) {
            $this->close();

            return;
        }
        if ($this->running === [] && $this->session->activeStreams() === 0 && $now - $this->lastActiveAt > $this->set->limits->keepAliveTimeout) {
            // Idle: say so (GOAWAY) and close.
            $this->session->goAway();
            $this->flush();
            $this->close();

            return;
        }
        $this->checkBy($this->nextDeadline());
    }

    private function nextDeadline(): float
    {
        $next = $this->drainEnds;
        if ($this->output->buffered() !== 0) {
            $next = \min($next, $this->output->lastWriteAt + $this->set->limits->bodyTimeout);
        }
        if ($this->running === []) {
            $next = \min($next, $this->lastActiveAt + $this->set->limits->keepAliveTimeout);
        }

        return $next;
    }

    private function checkBy(float $deadline): void
    {
        if ($deadline < $this->checkAt && !$this->closed) {
            $this->checkAt = $deadline;
            $this->set->timeouts->schedule($this, $deadline);
        }
    }

    public function timeOut(RunningRequest $run): bool
    {
        $id = $this->streamOf[\spl_object_id($run)] ?? null;
        if ($id === null || $this->closed) {
            return true;
        }
        if (isset($this->begun[$id])) {
            $this->session->resetStream($id, ErrorCode::InternalError);
            $this->flush();

            return true;
        }
        $this->refuse($id, new HttpException(504, 'Gateway Timeout'));

        return false;
    }

    public function abandon(RunningRequest $run, Response $response): bool
    {
        $id = $this->streamOf[\spl_object_id($run)] ?? null;
        $answered = false;
        if ($id !== null && !$this->closed && !$run->timedOut) {
            if (isset($this->begun[$id])) {
                $this->session->resetStream($id, ErrorCode::InternalError);
            } else {
                // No waiting here (the process is ending): what the windows do not take is lost.
                $this->begun[$id] = true;
                $body = \is_string($response->body) ? $response->body : '';
                $this->session->sendHeaders($id, $response->status, self::fields($response->headers), $body === '');
                if ($body !== '') {
                    $this->session->sendData($id, $body, true);
                }
                $answered = true;
            }
            $this->flush();
        }
        $this->finish($run);

        return $answered;
    }

    public function sendInformational(RunningRequest $run, int $status, array $headers): bool
    {
        $id = $this->streamOf[\spl_object_id($run)] ?? null;
        if ($id === null || $this->closed || isset($this->begun[$id])) {
            return false;
        }
        $this->session->sendInformational($id, $status, self::fields($headers));
        $this->flush();

        return true;
    }

    private function onReadable(): void
    {
        $data = @\fread($this->socket, self::READ_SIZE);
        if ($data === false || $data === '') {
            if ($data === false || \feof($this->socket)) {
                $this->close();
            }

            return;
        }
        $this->lastActiveAt = $this->set->clock->tick();
        $this->onBytes($data);
    }

    private function onBytes(string $data): void
    {
        foreach ($this->session->push($data) as $event) {
            if ($this->closed) {
                return;
            }
            if ($event instanceof StreamOpened) {
                $this->assembly->open($event->streamId, $event->headers, $event->endStream);
            } elseif ($event instanceof DataReceived) {
                $streamed = $this->assembly->isStreamed($event->streamId);
                $this->assembly->data($event->streamId, $event->data, $event->endStream);
                if (!$streamed) {
                    // The window opens again as the body is taken in (to memory or its file,
                    // bounded by --max-body-size); a body read as it arrives reopens it as read.
                    $this->session->consumed($event->streamId, \strlen($event->data));
                }
            } elseif ($event instanceof TrailersReceived) {
                $this->assembly->data($event->streamId, '', true);
            } elseif ($event instanceof WindowOpened) {
                $this->wakeWriter($event->streamId);
            } elseif ($event instanceof StreamReset) {
                $this->streamGone($event->streamId);
            } elseif ($event instanceof GoAwayReceived) {
                $this->drainEnds = \min($this->drainEnds, $this->set->clock->now + self::DRAIN_GRACE);
            } elseif ($event instanceof ConnectionError) {
                $this->set->logger->info(\sprintf('HTTP/2 connection from %s ended: %s (%s)', $this->peer->remoteAddress, $event->reason, $event->code->name));
                $this->flush();
                $this->close();

                return;
            }
        }
        $this->flush();
        $this->closeIfDone();
    }

    /**
     * A stream's request was assembled (its head, and its body unless it streams): it runs.
     *
     * @param list<string> $tempFiles
     */
    private function onRequest(int $id, Request $request, array $tempFiles): void
    {
        $run = new RunningRequest($request->withProtocolVersion('2.0'), $this, $tempFiles, true);
        $this->running[$id] = $run;
        $this->streamOf[\spl_object_id($run)] = $id;
        $this->set->requests->start($run);
    }

    /** A request that could not be assembled (too large, malformed): answered without the app. */
    public function refuse(int $id, HttpException $e): void
    {
        if ($this->closed || isset($this->begun[$id])) {
            return;
        }
        $this->begun[$id] = true;
        $answer = ErrorAnswer::refusal($e);
        $this->session->sendHeaders($id, $answer->status, $answer->headers());
        $this->session->sendData($id, $answer->body, true);
        $this->flush();
    }

    /** @internal StreamRequests: the handler of $id read $bytes of its body: the client may send as many more. */
    public function consumed(int $id, int $bytes): void
    {
        if (!$this->closed && $bytes > 0) {
            $this->session->consumed($id, $bytes);
            $this->flush();
        }
    }

    /** The peer reset $id (or the session did): its request stops where it waits. */
    private function streamGone(int $id): void
    {
        $this->assembly->abort($id);
        $this->wakeWriter($id);
        $run = $this->running[$id] ?? null;
        if ($run !== null && !$run->handled) {
            $this->set->requests->tasks()->cancel($run->context, new TaskCancelled(\sprintf('HTTP/2 stream %d was reset', $id)));
        }
    }

    private function wakeWriter(int $id): void
    {
        if ($id === 0) {
            foreach ($this->writers as $writer) {
                $writer->resume();
            }
            $this->writers = [];

            return;
        }
        $writer = $this->writers[$id] ?? null;
        if ($writer !== null) {
            unset($this->writers[$id]);
            $writer->resume();
        }
    }

    /** Writes a stream's response (RequestRunner::serve(), the stream's task, calls it). */
    public function services(): ConnectionServices
    {
        return $this->set;
    }

    public function respond(RunningRequest $run, Response $response): void
    {
        $id = $this->streamOf[\spl_object_id($run)] ?? null;
        if ($id === null || $this->closed || isset($this->begun[$id])) {
            return;
        }
        $request = $run->request;
        try {
            if ($response->upgrade !== null) {
                throw new \UnexpectedValueException('an HTTP/2 stream cannot switch protocols (RFC 9113 §8.6)');
            }
            $fields = self::fields($response->headers);
            if (!isset($response->headers['Date']) && !isset($response->headers['date'])) {
                $fields[] = ['date', $this->set->serializer->dateValue()];
            }
        } catch (\UnexpectedValueException $e) {
            $this->set->logger->error(\sprintf('%s %s: invalid response: %s', $request->method, $request->path, $e->getMessage()));
            $answer = ErrorAnswer::failure($e, $this->set->debug);
            $this->refuse($id, new HttpException($answer->status, \rtrim($answer->body, "\n")));

            return;
        }
        $this->begun[$id] = true;
        $body = $response->body;
        $noBody = $request->method === 'HEAD' || Status::forbidsBody($response->status);
        // With trailers (or a closure that may give some) the body does not end the stream.
        $trailers = !$noBody && $response->trailers !== [];
        try {
            if (\is_string($body)) {
                $this->session->sendHeaders($id, $response->status, $fields, !$trailers && ($noBody || $body === ''));
                if (!$noBody && $body !== '') {
                    $this->write($id, $body, !$trailers);
                }
                if ($trailers) {
                    $this->endWithTrailers($id, $response);
                }
                $this->flush();

                return;
            }
            $this->set->requests->streaming($run);
            if ($body instanceof FileBody) {
                $handle = @\fopen($body->path, 'rb');
                if ($handle === false) {
                    throw new \RuntimeException(\sprintf('Cannot open %s', $body->path));
                }
                try {
                    $this->session->sendHeaders($id, $response->status, $fields, !$trailers && ($noBody || $body->length === 0));
                    if ($body->offset > 0) {
                        \fseek($handle, $body->offset);
                    }
                    $left = $noBody ? 0 : $body->length;
                    while ($left > 0) {
                        $chunk = \fread($handle, \min(65536, $left));
                        if ($chunk === false || $chunk === '') {
                            throw new \RuntimeException(\sprintf('%s ended %d bytes early', $body->path, $left));
                        }
                        $left -= \strlen($chunk);
                        $this->write($id, $chunk, !$trailers && $left === 0);
                    }
                } finally {
                    \fclose($handle);
                }
                if ($trailers) {
                    $this->endWithTrailers($id, $response);
                }
                $this->flush();

                return;
            }
            $this->session->sendHeaders($id, $response->status, $fields, $noBody);
            $this->flush();
            if (!$noBody) {
                foreach ($body as $piece) {
                    $piece = (string) $piece;
                    if ($piece !== '') {
                        $this->write($id, $piece, false);
                    }
                }
                if ($trailers) {
                    $this->endWithTrailers($id, $response);
                } else {
                    $this->session->sendData($id, '', true);
                }
                $this->flush();
            }
        } catch (ConnectionClosed) {
            // The client left.
        } catch (\Throwable $e) {
            if (!$this->closed) {
                $this->set->logger->error(\sprintf('%s %s: response failed: %s', $request->method, $request->path, $e->getMessage()), ['exception' => $e]);
                $this->session->resetStream($id, ErrorCode::InternalError);
                $this->flush();
            }
        }
    }

    /** Ends the stream with the response's trailer fields (or with an empty DATA frame when it has none after all). */
    private function endWithTrailers(int $id, Response $response): void
    {
        $fields = self::fields($response->trailerFields());
        if ($fields === []) {
            $this->session->sendData($id, '', true);
        } else {
            $this->session->sendTrailers($id, $fields);
        }
    }

    /**
     * Hands $data to the session piece by piece, waiting while the stream may not send (the
     * peer's window is shut, or too much is queued).
     *
     * @throws ConnectionClosed
     */
    private function write(int $id, string $data, bool $end): void
    {
        $length = \strlen($data);
        for ($offset = 0; $offset < $length; $offset += self::DATA_PIECE) {
            while (!$this->session->canSend($id)) {
                if ($this->closed) {
                    throw new ConnectionClosed('The client closed the connection');
                }
                $this->writers[$id] = EventLoop::getSuspension();
                $this->flush();
                $this->writers[$id]->suspend();
            }
            if ($this->closed) {
                throw new ConnectionClosed('The client closed the connection');
            }
            $this->session->sendData($id, \substr($data, $offset, self::DATA_PIECE), $end && $offset + self::DATA_PIECE >= $length);
            $this->flush();
        }
    }

    /** The stream's request ended: its files and memory go, the stream is done. */
    public function finish(RunningRequest $run): void
    {
        if ($run->tempFiles !== []) {
            $run->removeTempFiles();
        }
        if ($run->request->body !== '') {
            $this->set->bodyMemory->give(\strlen($run->request->body));
        }
        $key = \spl_object_id($run);
        $id = $this->streamOf[$key] ?? null;
        unset($this->streamOf[$key]);
        if ($id !== null) {
            unset($this->running[$id], $this->begun[$id], $this->writers[$id]);
            if ($this->session->activeStreams() > 0 && !$this->closed && !$run->timedOut) {
                // A stream whose response did not end it (a handler that failed mid-stream).
                $this->session->resetStream($id, ErrorCode::NoError);
            }
        }
        $this->lastActiveAt = $this->set->clock->tick();
        $this->flush();
        $this->closeIfDone();
        $this->checkBy($this->nextDeadline());
    }

    /** After GOAWAY (ours or the peer's) with no stream left: close once written. */
    private function closeIfDone(): void
    {
        if (!$this->closed && $this->session->isClosed() && $this->running === [] && $this->output->buffered() === 0) {
            $this->close();
        }
    }

    /** Writes what the session has ready; a client behind by the high-water mark stops the reading. */
    private function flush(): void
    {
        if ($this->closed) {
            return;
        }
        $bytes = $this->session->takeOutput();
        if ($bytes === '') {
            return;
        }
        $this->output->write($bytes);
        $behind = $this->output->buffered();
        if ($behind >= $this->set->limits->writeHighWater && !$this->readPaused) {
            $this->readPaused = true;
            EventLoop::disable($this->readId);
        } elseif ($behind !== 0) {
            $this->checkBy($this->output->lastWriteAt + $this->set->limits->bodyTimeout);
        }
    }

    /** The client took everything written: read again, write what the session has, close if done. */
    private function onDrained(): void
    {
        if ($this->readPaused && !$this->closed) {
            $this->readPaused = false;
            EventLoop::enable($this->readId);
        }
        $this->flush();
        $this->closeIfDone();
    }

    /**
     * A response's header fields as HTTP/2 sends them: lower-case names, one pair per value.
     *
     * @param array<string, string|list<string>> $headers
     *
     * @return list<array{string, string}>
     *
     * @throws \UnexpectedValueException for a name or value that could split the field block
     */
    private static function fields(array $headers): array
    {
        $fields = [];
        foreach ($headers as $name => $values) {
            $name = \strtolower((string) $name);
            if ($name === '' || \strcspn($name, "\0\r\n: \t") !== \strlen($name)) {
                throw new \UnexpectedValueException(\sprintf('Invalid response header name "%s"', \addcslashes($name, "\0..\37")));
            }
            foreach ((array) $values as $value) {
                $value = (string) $value;
                if (\strcspn($value, "\0\r\n") !== \strlen($value)) {
                    throw new \UnexpectedValueException(\sprintf('Invalid value for response header "%s"', $name));
                }
                $fields[] = [$name, $value];
            }
        }

        return $fields;
    }
}
