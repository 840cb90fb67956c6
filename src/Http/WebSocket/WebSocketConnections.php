<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

use Spindle\Http\Request;

/**
 * The WebSocket connections of one worker, whatever endpoint accepted them: how many are open (in
 * all and per client address) against the worker's limits (--ws-max-connections,
 * --ws-max-per-ip, --ws-open-timeout), and what they moved since the worker started, for
 * `--metrics` and `spindle status`. Plain counters, written by the connections' drivers as things
 * happen (a few increments, no call out); read when the worker reports.
 */
final class WebSocketConnections
{
    /** Connections over the limits are refused with this many seconds in Retry-After. */
    public const RETRY_AFTER = 5;

    /** Open connections past which a handshake is answered 503 (0: only --max-connections bounds them). */
    private int $maxConnections = 0;
    /** Open connections from one client address past which a handshake is answered 429 (0: none). */
    private int $maxPerAddress = 0;
    /**
     * Seconds a client has after the 101 to send a first byte, or it is pinged, and dropped if it
     * does not answer within as many seconds again (0: WebSocketOptions::$idleTimeout alone).
     */
    private float $openTimeout = 0.0;
    /** @var (\Closure(Request): string)|null the client's address behind trusted proxies (--trusted-proxies); null: the peer's */
    private ?\Closure $clientAddress = null;

    private int $open = 0;
    /** @var array<string, int> client address => open connections (while per-address counting is on) */
    private array $byAddress = [];
    public int $opened = 0;
    /** @var array<int, int> close code => connections closed with it (1006: lost without a closing handshake) */
    public array $closed = [];
    /** @var array<string, int> why => handshakes refused for a limit ('worker', 'address') */
    public array $refused = [];
    public int $messagesIn = 0;
    public int $messagesOut = 0;
    /** Messages the app sent to a connection that was closing or closed (not sent). */
    public int $messagesDropped = 0;
    public int $bytesIn = 0;
    public int $bytesOut = 0;
    /** Connections dropped because their client did not read (its write buffer passed WebSocketOptions::$maxBuffered). */
    public int $slowDropped = 0;
    /** Connections dropped because their client did not answer a ping (idle, or silent since the 101). */
    public int $silentDropped = 0;


    /** @param (\Closure(Request): string)|null $clientAddress the client's address behind trusted proxies; null: the peer's */
    public function limit(int $maxConnections, int $maxPerAddress, float $openTimeout, ?\Closure $clientAddress = null): void
    {
        if ($maxConnections < 0 || $maxPerAddress < 0 || $openTimeout < 0) {
            throw new \InvalidArgumentException(\sprintf('WebSocket limits are 0 or more, got %d connections, %d per address, %.1f s to open', $maxConnections, $maxPerAddress, $openTimeout));
        }
        $this->maxConnections = $maxConnections;
        $this->maxPerAddress = $maxPerAddress;
        $this->openTimeout = $openTimeout;
        $this->clientAddress = $clientAddress;
    }

    /** The address a connection counts under for --ws-max-per-ip (through --trusted-proxies). */
    public function addressOf(Request $request): string
    {
        return $this->clientAddress === null ? $request->remoteAddress : ($this->clientAddress)($request);
    }

    public function openTimeout(): float
    {
        return $this->openTimeout;
    }

    public function open(): int
    {
        return $this->open;
    }

    /**
     * Whether a handshake from $request may open a connection now: null if so, else the status
     * (503 at the worker's cap, 429 at the address's) and the reason, and the refusal is counted.
     *
     * @return array{int, string}|null
     */
    public function refusal(Request $request): ?array
    {
        if ($this->maxConnections > 0 && $this->open >= $this->maxConnections) {
            $this->refused['worker'] = ($this->refused['worker'] ?? 0) + 1;

            return [503, \sprintf('This server holds its maximum of %d WebSocket connections; try again later', $this->maxConnections)];
        }
        if ($this->maxPerAddress > 0 && ($this->byAddress[$address = $this->addressOf($request)] ?? 0) >= $this->maxPerAddress) {
            $this->refused['address'] = ($this->refused['address'] ?? 0) + 1;

            return [429, \sprintf('%s holds its maximum of %d WebSocket connections to this server', $address, $this->maxPerAddress)];
        }

        return null;
    }

    /** @internal a driver: a connection from $address opened. */
    public function opened(string $address): void
    {
        ++$this->open;
        ++$this->opened;
        if ($this->maxPerAddress > 0) {
            $this->byAddress[$address] = ($this->byAddress[$address] ?? 0) + 1;
        }
    }

    /** @internal a driver: a connection from $address closed with $code. */
    public function closed(string $address, int $code): void
    {
        --$this->open;
        $this->closed[$code] = ($this->closed[$code] ?? 0) + 1;
        if (isset($this->byAddress[$address]) && --$this->byAddress[$address] <= 0) {
            unset($this->byAddress[$address]);
        }
    }
}
