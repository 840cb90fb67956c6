<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use Revolt\EventLoop;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Http\ClosureHandler;
use Spindle\Server\Listener;
use Spindle\Server\ChannelToMaster;
use Spindle\Server\ServerOptions;
use Spindle\Server\Worker;

/**
 * Runs a Worker in the test process, on a free port, with a socket pair for its channel: the
 * test plays the master (it reads the JSON lines) and the clients (a script in a loop fiber).
 * When the script returns, the master's end is closed, so the worker drains and serve() returns.
 */
final class InProcessWorker
{
    /** @var list<array{float, array<string, mixed>, string}> arrival time, decoded message, raw line */
    public array $messages = [];
    public readonly MemoryLogger $logger;
    public readonly Worker $worker;
    private readonly float $startedAt;
    private string $partial = '';
    /** @var list<array{string, int, Awaited}> message type, count, who waits for that many */
    private array $awaited = [];

    /** @param resource $masterEnd */
    private function __construct(ServerOptions $options, private readonly mixed $masterEnd)
    {
        $this->logger = new MemoryLogger();
        $this->worker = new Worker($options, $this->logger);
        $this->startedAt = \microtime(true);
    }

    /**
     * @param \Closure(Request): (Response|string) $app
     * @param \Closure(int, self): void              $script the clients; runs in a loop fiber
     */
    public static function run(ServerOptions $options, \Closure $app, \Closure $script, float $limit = 5.0): self
    {
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        if ($pair === false) {
            throw new \RuntimeException('Cannot create a socket pair');
        }
        [$workerEnd, $masterEnd] = $pair;
        \stream_set_blocking($masterEnd, false);
        $self = new self($options, $masterEnd);
        $handler = $self->worker->wrap(new ClosureHandler(static function (Request $request) use ($app): Response {
            $result = $app($request);

            return \is_string($result) ? new Response(200, ['Content-Type' => 'text/plain'], $result) : $result;
        }));
        $listener = Listener::listen('127.0.0.1', 0);
        $port = Listener::port($listener);

        $failure = null;
        $readId = EventLoop::unreference(EventLoop::onReadable($masterEnd, $self->collect(...)));
        EventLoop::queue(static function () use ($script, $port, $self, $readId, &$failure): void {
            try {
                $script($port, $self);
                $self->collect();
            } catch (\Throwable $e) {
                $failure = $e;
            } finally {
                EventLoop::cancel($readId);
                \fclose($self->masterEnd);
            }
        });
        $timedOut = false;
        $guard = EventLoop::unreference(EventLoop::delay($limit, static function () use (&$timedOut): void {
            $timedOut = true;
            EventLoop::getDriver()->stop();
        }));
        try {
            $self->worker->serve($listener, $handler, new ChannelToMaster($workerEnd));
        } finally {
            EventLoop::cancel($guard);
            if ($timedOut) {
                // Leave a clean loop for the next test.
                foreach (EventLoop::getIdentifiers() as $id) {
                    EventLoop::cancel($id);
                }
            }
            if (\is_resource($workerEnd)) {
                \fclose($workerEnd);
            }
        }
        if ($failure !== null) {
            throw $failure;
        }
        if ($timedOut) {
            throw new \RuntimeException(\sprintf('The in-process worker did not stop within %.1f s', $limit));
        }

        return $self;
    }

    /** Reads the lines the worker wrote so far. */
    public function collect(): void
    {
        if (!\is_resource($this->masterEnd)) {
            return;
        }
        while (($data = @\fread($this->masterEnd, 65536)) !== false && $data !== '') {
            $this->partial .= $data;
        }
        $now = \microtime(true) - $this->startedAt;
        while (($end = \strpos($this->partial, "\n")) !== false) {
            $line = \substr($this->partial, 0, $end);
            $this->partial = (string) \substr($this->partial, $end + 1);
            $message = \json_decode($line, true, 512, \JSON_THROW_ON_ERROR);
            \assert(\is_array($message));
            $this->messages[] = [$now, $message, $line];
        }
        foreach ($this->awaited as $i => [$type, $count, $awaited]) {
            if (\count($this->ofTypeCollected($type)) >= $count) {
                unset($this->awaited[$i]);
                $awaited->happen();
            }
        }
    }

    /**
     * Waits until the worker has sent $count messages of $type (read as they arrive), at most
     * $timeout seconds (then throws).
     */
    public function waitForMessages(string $type, int $count, float $timeout): void
    {
        $awaited = new Awaited(\sprintf('%d "%s" messages from the worker', $count, $type));
        $this->awaited[] = [$type, $count, $awaited];
        $this->collect();
        $awaited->wait($timeout);
    }

    /** @return list<array<string, mixed>> the messages of $type, in order */
    public function ofType(string $type): array
    {
        $this->collect();

        return $this->ofTypeCollected($type);
    }

    /** @return list<array<string, mixed>> */
    private function ofTypeCollected(string $type): array
    {
        $found = [];
        foreach ($this->messages as [, $message]) {
            if (($message['type'] ?? null) === $type) {
                $found[] = $message;
            }
        }

        return $found;
    }

    /** Seconds since the worker was set up. */
    public function elapsed(): float
    {
        return \microtime(true) - $this->startedAt;
    }
}
