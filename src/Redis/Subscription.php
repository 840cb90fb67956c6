<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Spindle\Redis\Protocol\Aggregate;
use Spindle\Redis\Protocol\ProtocolException;

/**
 * Messages of SUBSCRIBE or PSUBSCRIBE on a dedicated connection. Iterating suspends the fiber
 * between messages; it ends once close() was called (or every channel was unsubscribed).
 *
 *     foreach ($redis->subscribe('news') as $message) { … $message->payload … }
 *
 * @implements \IteratorAggregate<int, Message>
 */
final class Subscription implements \IteratorAggregate
{
    private int $subscribed = 0;
    private bool $closed = false;

    /** @param list<string> $channels */
    public function __construct(private readonly Lease $lease, private readonly string $command, array $channels)
    {
        $lease->connection->sendSubscriberCommand([$command, ...$channels]);
        // The confirmations, one per channel, before any message.
        for ($i = 0, $n = \count($channels); $i < $n; ++$i) {
            $this->next(null);
        }
    }

    /**
     * The next message, waiting for it.
     *
     * @param float|null $timeout seconds; null for no limit
     *
     * @return Message|null null when the timeout passed, or once the subscription ended
     */
    public function receive(?float $timeout = null): ?Message
    {
        while (!$this->closed) {
            $message = $this->next($timeout);
            if ($message instanceof Message || $message === false) {
                return $message ?: null;
            }
        }

        return null;
    }

    /** @return \Generator<int, Message> */
    public function getIterator(): \Generator
    {
        while (($message = $this->receive()) !== null) {
            yield $message;
        }
    }

    /** Subscribes to more channels (or patterns, for PSUBSCRIBE) on the same connection. */
    public function add(string ...$channels): void
    {
        $this->lease->connection->sendSubscriberCommand([$this->command, ...array_values($channels)]);
    }

    /** Ends the subscription; its connection is closed (a subscribed connection is not reused). */
    public function close(): void
    {
        if ($this->closed) {
            return;
        }
        $this->closed = true;
        $this->lease->release();
    }

    public function channelCount(): int
    {
        return $this->subscribed;
    }

    public function __destruct()
    {
        $this->close();
    }

    /** @return Message|bool a message, true for a confirmation, false on timeout */
    private function next(?float $timeout): Message|bool
    {
        $reply = $this->lease->connection->receive($timeout);
        if ($reply === null) {
            return false;
        }
        if ($reply instanceof Aggregate) {
            $reply = $reply->items;
        }
        if (!\is_array($reply) || !isset($reply[0]) || !\is_string($reply[0])) {
            throw new ProtocolException('Unexpected reply on a subscribed Redis connection');
        }
        switch (strtolower($reply[0])) {
            case 'message':
                return new Message((string) $reply[1], (string) $reply[2]);
            case 'pmessage':
                return new Message((string) $reply[2], (string) $reply[3], (string) $reply[1]);
            case 'subscribe':
            case 'psubscribe':
            case 'unsubscribe':
            case 'punsubscribe':
                $this->subscribed = (int) ($reply[2] ?? 0);
                if ($this->subscribed === 0 && str_contains(strtolower($reply[0]), 'unsub')) {
                    $this->close();
                }

                return true;
            default:
                return true;
        }
    }
}
