<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * The client's side of the opening handshake (RFC 6455 §4.1), for tests and tools: request()
 * writes the GET with a fresh key, validate() checks the server's answer against it.
 */
final class ClientHandshake
{
    public readonly string $key;

    /**
     * @param list<string> $subprotocols offered, in order
     * @param array<string, string> $extraHeaders sent as given (Origin, Cookie, …)
     */
    public function __construct(
        public readonly string $host,
        public readonly string $path = '/',
        public readonly array $subprotocols = [],
        public readonly array $extraHeaders = [],
        ?string $key = null,
    ) {
        $this->key = $key ?? \base64_encode(\random_bytes(16));
    }

    /** The request's bytes. */
    public function request(): string
    {
        $request = "GET {$this->path} HTTP/1.1\r\nHost: {$this->host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            . "Sec-WebSocket-Key: {$this->key}\r\nSec-WebSocket-Version: 13\r\n";
        if ($this->subprotocols !== []) {
            $request .= 'Sec-WebSocket-Protocol: ' . \implode(', ', $this->subprotocols) . "\r\n";
        }
        foreach ($this->extraHeaders as $name => $value) {
            $request .= "{$name}: {$value}\r\n";
        }

        return $request . "\r\n";
    }

    /**
     * Checks a response head (RFC 6455 §4.1, the client's checks 1–6) and returns the subprotocol
     * the server chose, or null.
     *
     * @param array<string, list<string>> $headers lower-case names
     *
     * @throws HandshakeException
     */
    public function validate(int $status, array $headers): ?string
    {
        if ($status !== 101) {
            throw new HandshakeException(\sprintf('The server answered %d, not 101', $status));
        }
        if (\strcasecmp(\trim(($headers['upgrade'] ?? [''])[0]), 'websocket') !== 0) {
            throw new HandshakeException('The 101 has no "Upgrade: websocket"');
        }
        $connection = \array_map(static fn (string $t): string => \strtolower(\trim($t)), \explode(',', \implode(',', $headers['connection'] ?? [])));
        if (!\in_array('upgrade', $connection, true)) {
            throw new HandshakeException('The 101 has no "Connection: Upgrade"');
        }
        $accept = $headers['sec-websocket-accept'] ?? [];
        if (\count($accept) !== 1 || \trim($accept[0]) !== ServerHandshake::acceptKey($this->key)) {
            throw new HandshakeException('Sec-WebSocket-Accept does not match the key sent');
        }
        if (($headers['sec-websocket-extensions'] ?? []) !== []) {
            throw new HandshakeException('The server chose an extension none was offered');
        }
        $protocol = $headers['sec-websocket-protocol'] ?? [];
        if ($protocol === []) {
            return null;
        }
        if (\count($protocol) !== 1 || !\in_array(\trim($protocol[0]), $this->subprotocols, true)) {
            throw new HandshakeException(\sprintf('The server chose subprotocol %s, which was not offered', \implode(', ', $protocol)));
        }

        return \trim($protocol[0]);
    }

    /**
     * Splits a response head ("HTTP/1.1 101 …\r\nName: value\r\n…", the blank line optional) into
     * its status and lower-case headers.
     *
     * @return array{int, array<string, list<string>>}
     */
    public static function parseResponseHead(string $head): array
    {
        $lines = \explode("\r\n", \rtrim($head, "\r\n"));
        if (\preg_match('~^HTTP/1\.[01] (\d{3})(?: |$)~', $lines[0], $match) !== 1) {
            throw new HandshakeException(\sprintf('Not an HTTP response: %s', \substr($lines[0], 0, 80)));
        }
        $headers = [];
        foreach (\array_slice($lines, 1) as $line) {
            $colon = \strpos($line, ':');
            if ($colon === false) {
                throw new HandshakeException(\sprintf('Malformed header line: %s', \substr($line, 0, 80)));
            }
            $headers[\strtolower(\substr($line, 0, $colon))][] = \trim(\substr($line, $colon + 1));
        }

        return [(int) $match[1], $headers];
    }
}
