<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Revolt\EventLoop;
use Revolt\EventLoop\Suspension;
use Spindle\Redis\Protocol\Aggregate;
use Spindle\Redis\Protocol\AggregateKind;
use Spindle\Redis\Protocol\ErrorReply;
use Spindle\Redis\Protocol\ProtocolException;
use Spindle\Redis\Protocol\RespEncoder;
use Spindle\Redis\Protocol\RespParser;

/**
 * One socket to a Redis server, non-blocking and pipelined: commands from any number of fibers
 * are written back to back and each reply goes to the command it answers, in order. While it
 * waits only the calling fiber is suspended; outside a fiber the event loop runs until the reply
 * is there, so the call is synchronous.
 *
 * A lost connection, a reply that breaks the protocol or a read timeout breaks the connection:
 * every command waiting on it fails with an exception naming the server and its command, and
 * later ones fail at once (isBroken()). Error replies are values ({@see ErrorReply}): they answer
 * one command and leave the connection usable.
 *
 * In subscriber mode (after SUBSCRIBE) every reply goes to the inbox that receive() reads.
 *
 * Over 500 lines: it is the one class that owns a Redis socket, and its write buffer, reader,
 * per-command deadlines and failure all work on the one queue of commands waiting for replies;
 * the wire format is Protocol/'s (RespParser, RespEncoder).
 */
final class Connection
{
    private const READ_CHUNK = 262144;

    /** @var resource|null */
    private $socket;
    private readonly RespParser $parser;
    private string $outgoing = '';
    /** @var array<int, Pending> by sequence number */
    private array $pending = [];
    private int $head = 0;
    private int $tail = 0;
    private ?string $readId = null;
    private ?string $writeId = null;
    private ?string $timerId = null;
    private ?string $flushId = null;
    private ?RedisException $failure = null;
    private bool $subscriber = false;
    /** @var list<mixed> replies received in subscriber mode, not yet read */
    private array $inbox = [];
    /** @var Suspension<mixed>|null */
    private ?Suspension $inboxWaiter = null;
    private int $lastActive;

    /** @param resource $socket */
    private function __construct(public readonly RedisConfig $config, $socket)
    {
        $this->socket = $socket;
        $this->parser = new RespParser($config->maxBulkLength);
        $this->lastActive = hrtime(true);
    }

    /**
     * Connects and prepares the session: HELLO 3 (RESP3), AUTH, SELECT and CLIENT SETNAME as
     * configured, in one round trip.
     *
     * @throws ConnectionException
     * @throws ServerException when the server refuses one of them (a wrong password)
     */
    public static function connect(RedisConfig $config): self
    {
        $socket = SocketOpener::open($config);
        $connection = new self($config, $socket);
        $commands = [];
        if ($config->protocol === 3) {
            $hello = ['HELLO', '3'];
            if ($config->password !== null) {
                array_push($hello, 'AUTH', $config->username ?? 'default', $config->password);
            }
            $commands[] = $hello;
        } elseif ($config->password !== null) {
            $commands[] = $config->username !== null ? ['AUTH', $config->username, $config->password] : ['AUTH', $config->password];
        }
        if ($config->database !== 0) {
            $commands[] = ['SELECT', (string) $config->database];
        }
        if ($config->clientName !== null) {
            $commands[] = ['CLIENT', 'SETNAME', $config->clientName];
        }
        if ($commands === []) {
            return $connection;
        }
        try {
            $replies = $connection->executeMany($commands, $config->connectTimeout);
        } catch (\Throwable $e) {
            $connection->close();
            throw $e;
        }
        foreach ($replies as $i => $reply) {
            if ($reply instanceof ErrorReply) {
                $connection->close();
                throw new ServerException($reply, $commands[$i][0]);
            }
        }

        return $connection;
    }

    /**
     * Sends one command and waits for its reply.
     *
     * @param list<string|int|float> $arguments the command name first
     * @param float|null $timeout seconds to wait for the reply, null for the configured read timeout, 0 for none
     *
     * @return mixed the reply; an error reply as an ErrorReply value
     *
     * @throws ConnectionException
     * @throws ProtocolException
     */
    public function execute(array $arguments, ?float $timeout = null): mixed
    {
        $this->usable();
        $entry = new Pending((string) $arguments[0], $this->deadline($timeout), $timeout ?? $this->config->readTimeout, EventLoop::getSuspension());
        $this->enqueue(RespEncoder::command($arguments), [$entry]);

        return $entry->suspension?->suspend();
    }

    /**
     * Sends the commands back to back and waits for all their replies (a pipeline).
     *
     * @param list<list<string|int|float>> $commands
     *
     * @return list<mixed> one reply per command, error replies as ErrorReply values
     */
    public function executeMany(array $commands, ?float $timeout = null): array
    {
        if ($commands === []) {
            return [];
        }
        $this->usable();
        $deadline = $this->deadline($timeout);
        $entries = [];
        $bytes = '';
        foreach ($commands as $arguments) {
            $bytes .= RespEncoder::command($arguments);
            $entries[] = new Pending((string) $arguments[0], $deadline, $timeout ?? $this->config->readTimeout);
        }
        $last = $entries[\count($entries) - 1];
        $last->suspension = EventLoop::getSuspension();
        $this->enqueue($bytes, $entries);
        $last->suspension->suspend();

        return array_map(static fn (Pending $entry): mixed => $entry->reply, $entries);
    }

    /**
     * Writes a command whose replies arrive in the inbox (SUBSCRIBE and friends); the connection
     * stays in subscriber mode from then on.
     *
     * @param list<string|int|float> $arguments
     */
    public function sendSubscriberCommand(array $arguments): void
    {
        $this->usable();
        $this->subscriber = true;
        $this->write(RespEncoder::command($arguments));
        $this->enableRead();
    }

    /**
     * The next reply received in subscriber mode, waiting for it.
     *
     * @param float|null $timeout seconds, null or 0 for no limit
     *
     * @return mixed the reply, or null when the timeout passed first
     */
    public function receive(?float $timeout = null): mixed
    {
        if ($this->inbox !== []) {
            return array_shift($this->inbox);
        }
        $this->usable();
        $this->enableRead();
        $suspension = EventLoop::getSuspension();
        $this->inboxWaiter = $suspension;
        $timer = $timeout !== null && $timeout > 0 ? EventLoop::delay($timeout, function () use ($suspension): void {
            if ($this->inboxWaiter === $suspension) {
                $this->inboxWaiter = null;
                $suspension->resume(null);
            }
        }) : null;
        try {
            $suspension->suspend();
        } finally {
            $this->inboxWaiter = null;
            if ($timer !== null) {
                EventLoop::cancel($timer);
            }
        }

        return $this->inbox === [] ? null : array_shift($this->inbox);
    }

    public function isSubscriber(): bool
    {
        return $this->subscriber;
    }

    /** Whether commands are waiting for replies. */
    public function isBusy(): bool
    {
        return $this->head !== $this->tail;
    }

    public function isBroken(): bool
    {
        return $this->failure !== null || $this->socket === null;
    }

    /**
     * An idle connection the server may have closed (idle timeout, restart): a non-blocking peek
     * tells, without a round trip. Not checked within a second of the last reply.
     */
    public function isAlive(): bool
    {
        if ($this->isBroken()) {
            return false;
        }
        if ($this->isBusy() || $this->subscriber || hrtime(true) - $this->lastActive < 1_000_000_000 || $this->config->tls) {
            return true;
        }
        \assert($this->socket !== null);
        $peek = @stream_socket_recvfrom($this->socket, 1, STREAM_PEEK);
        if ($peek === false) {
            return true;
        }
        // EOF (or unsolicited bytes: the server's goodbye): unusable.
        $this->fail(new ConnectionException(sprintf('Redis server %s went away (closed an idle connection)', $this->config->where())));

        return false;
    }

    /** Closes the socket; commands still waiting fail. */
    public function close(): void
    {
        if ($this->socket === null) {
            return;
        }
        $this->fail(new ConnectionException(sprintf('The connection to Redis server %s was closed', $this->config->where())));
    }

    public function __destruct()
    {
        $this->closeSocket();
    }

    /** @param list<Pending> $entries */
    private function enqueue(string $bytes, array $entries): void
    {
        $pipelining = $this->head !== $this->tail;
        foreach ($entries as $entry) {
            $this->pending[$this->tail++] = $entry;
        }
        if ($pipelining && $this->outgoing === '') {
            // Other fibers wait already: gather what this loop tick sends into one write.
            $this->outgoing = $bytes;
            $this->flushId ??= EventLoop::defer($this->flush(...));
        } else {
            $this->write($bytes);
        }
        $this->enableRead();
        if ($this->timerId === null && $entries[0]->deadline !== null) {
            $this->armTimer($entries[0]->deadline);
        }
    }

    private function write(string $bytes): void
    {
        if ($this->outgoing !== '') {
            $this->outgoing .= $bytes;

            return;
        }
        \assert($this->socket !== null);
        $written = @fwrite($this->socket, $bytes);
        if ($written === false) {
            // The caller has not suspended yet: its command fails once it waits.
            $failure = $this->failure ??= $this->lost();
            EventLoop::defer(fn () => $this->fail($failure));

            return;
        }
        if ($written < \strlen($bytes)) {
            $this->outgoing = substr($bytes, $written);
            $this->writeId ??= EventLoop::onWritable($this->socket, $this->writable(...));
            EventLoop::enable($this->writeId);
        }
    }

    private function flush(): void
    {
        $this->flushId = null;
        if ($this->outgoing === '' || $this->socket === null || $this->writeId !== null && EventLoop::isEnabled($this->writeId)) {
            return;
        }
        $bytes = $this->outgoing;
        $this->outgoing = '';
        $this->write($bytes);
    }

    private function writable(): void
    {
        if ($this->socket === null || $this->outgoing === '') {
            if ($this->writeId !== null) {
                EventLoop::disable($this->writeId);
            }

            return;
        }
        $written = @fwrite($this->socket, $this->outgoing);
        if ($written === false) {
            $this->fail($this->lost());

            return;
        }
        $this->outgoing = (string) substr($this->outgoing, $written);
        if ($this->outgoing === '' && $this->writeId !== null) {
            EventLoop::disable($this->writeId);
        }
    }

    private function enableRead(): void
    {
        if ($this->socket === null) {
            return;
        }
        $this->readId ??= EventLoop::onReadable($this->socket, $this->readable(...));
        EventLoop::enable($this->readId);
    }

    private function readable(): void
    {
        if ($this->socket === null) {
            return;
        }
        do {
            $data = @fread($this->socket, self::READ_CHUNK);
            if ($data === false || ($data === '' && feof($this->socket))) {
                $this->fail($this->lost());

                return;
            }
            if ($data === '') {
                break;
            }
            try {
                $replies = $this->parser->push($data);
            } catch (ProtocolException $e) {
                $this->fail(new ProtocolException(sprintf('%s (from Redis server %s, reading the reply to %s)', $e->getMessage(), $this->config->where(), $this->waitingFor()), 0, $e));

                return;
            }
            foreach ($replies as $reply) {
                $this->deliver($reply);
            }
        } while ($this->config->tls && $this->socket !== null);
        $this->lastActive = hrtime(true);
        if ($this->head === $this->tail && !$this->subscriber && $this->readId !== null) {
            EventLoop::disable($this->readId);
        }
    }

    private function deliver(mixed $reply): void
    {
        if (!$this->subscriber && $reply instanceof Aggregate && $reply->kind === AggregateKind::Push) {
            // RESP3 out-of-band data (client-side caching invalidations): no command's reply.
            return;
        }
        if ($this->head === $this->tail) {
            if ($this->subscriber) {
                $this->inbox[] = $reply;
                $waiter = $this->inboxWaiter;
                $this->inboxWaiter = null;
                $waiter?->resume();

                return;
            }
            $this->fail(new ProtocolException(sprintf('Redis server %s sent a reply no command was waiting for', $this->config->where())));

            return;
        }
        $entry = $this->pending[$this->head];
        unset($this->pending[$this->head]);
        ++$this->head;
        $entry->reply = $reply;
        $entry->done = true;
        if ($entry->suspension !== null) {
            $suspension = $entry->suspension;
            $entry->suspension = null;
            $suspension->resume($reply);
        }
    }

    private function armTimer(float $deadline): void
    {
        $this->timerId = EventLoop::unreference(EventLoop::delay(max(0.0, $deadline - self::now()), $this->expired(...)));
    }

    /** The lazy read timer: re-armed for the oldest waiting command, or fails the connection. */
    private function expired(): void
    {
        $this->timerId = null;
        if ($this->head === $this->tail) {
            return;
        }
        $deadline = $this->pending[$this->head]->deadline;
        if ($deadline === null) {
            return;
        }
        if ($deadline > self::now()) {
            $this->armTimer($deadline);

            return;
        }
        $this->fail(new ConnectionException(sprintf(
            'Read timeout: Redis server %s did not answer %s in time (%.3g s)',
            $this->config->where(),
            $this->waitingFor(),
            $this->pending[$this->head]->timeout,
        )));
    }

    private function usable(): void
    {
        if ($this->failure !== null) {
            throw new ConnectionException($this->failure->getMessage() . ' (the connection is broken)', 0, $this->failure);
        }
        if ($this->socket === null) {
            throw new ConnectionException(sprintf('The connection to Redis server %s is closed', $this->config->where()));
        }
    }

    private function deadline(?float $timeout): ?float
    {
        $timeout ??= $this->config->readTimeout;

        return $timeout > 0 ? self::now() + $timeout : null;
    }

    private function lost(): ConnectionException
    {
        return new ConnectionException(sprintf(
            'Redis server %s went away: connection lost while waiting for the reply to %s',
            $this->config->where(),
            $this->waitingFor(),
        ));
    }

    private function waitingFor(): string
    {
        return $this->head === $this->tail ? ($this->subscriber ? 'SUBSCRIBE' : 'no command') : strtoupper($this->pending[$this->head]->command);
    }

    /** Breaks the connection: every waiting command gets $failure, each naming its own command. */
    private function fail(RedisException $failure): void
    {
        $failure = $this->failure ??= $failure;
        $this->closeSocket();
        while ($this->head !== $this->tail) {
            $entry = $this->pending[$this->head];
            unset($this->pending[$this->head]);
            ++$this->head;
            if ($entry->suspension !== null) {
                $suspension = $entry->suspension;
                $entry->suspension = null;
                $suspension->throw($failure);
            }
        }
        $waiter = $this->inboxWaiter;
        $this->inboxWaiter = null;
        $waiter?->throw($failure);
    }

    private function closeSocket(): void
    {
        foreach ([$this->readId, $this->writeId, $this->timerId, $this->flushId] as $id) {
            if ($id !== null) {
                EventLoop::cancel($id);
            }
        }
        $this->readId = $this->writeId = $this->timerId = $this->flushId = null;
        if ($this->socket !== null) {
            @fclose($this->socket);
            $this->socket = null;
        }
    }

    private static function now(): float
    {
        return hrtime(true) / 1e9;
    }
}
