<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

use Spindle\Http\Request;

/**
 * The server's side of the opening handshake (RFC 6455 §4.2): reads a request's method, version
 * and headers and decides.
 *
 * - No `Upgrade: websocket` token: NotWebSocket (the request is plain HTTP).
 * - Rejected with 400: not GET, HTTP before 1.1, no `Connection: upgrade` token, no Host, a
 *   Sec-WebSocket-Key that is not the base64 of 16 bytes (or sent twice).
 * - Rejected with 426 and `Sec-WebSocket-Version: 13`: a version other than 13, or none.
 * - Rejected with 403: an Origin the OriginPolicy refuses.
 * - Accepted: the 101's headers, with Sec-WebSocket-Accept and the subprotocol chosen: the first
 *   of the server's $subprotocols (its order of preference) that the client offers; and
 *   permessage-deflate (RFC 7692) when the server has a PerMessageDeflate policy and the client
 *   offers it. Without a policy Sec-WebSocket-Extensions is never answered, so RSV bits stay unused.
 *
 * Header names are lower-case and map to their list of values, as Spindle\Http\Request has them.
 */
final class ServerHandshake
{
    private const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

    /** @param list<string> $subprotocols the subprotocols the server speaks, preferred first */
    public function __construct(
        private readonly array $subprotocols = [],
        private readonly ?OriginPolicy $origins = null,
        private readonly ?PerMessageDeflate $deflate = null,
    ) {
    }

    /** The Sec-WebSocket-Accept value for a Sec-WebSocket-Key. */
    public static function acceptKey(string $key): string
    {
        return \base64_encode(\sha1($key . self::GUID, true));
    }

    public function evaluateRequest(Request $request): HandshakeResult
    {
        return $this->evaluate($request->method, $request->protocolVersion, $request->headers);
    }

    /**
     * @param string $protocolVersion as in the request line, without "HTTP/" ("1.1")
     * @param array<string, list<string>> $headers lower-case names
     */
    public function evaluate(string $method, string $protocolVersion, array $headers): HandshakeResult
    {
        if (!self::hasToken($headers['upgrade'] ?? [], 'websocket')) {
            return new HandshakeResult(HandshakeOutcome::NotWebSocket, 0);
        }
        if ($method !== 'GET') {
            return self::reject(400, \sprintf('A WebSocket handshake must be a GET request, not %s', $method));
        }
        if (\str_replace('HTTP/', '', $protocolVersion) !== '1.1') {
            return self::reject(400, \sprintf('A WebSocket handshake needs HTTP/1.1, not HTTP/%s', $protocolVersion));
        }
        if (!self::hasToken($headers['connection'] ?? [], 'upgrade')) {
            return self::reject(400, 'A WebSocket handshake needs "Connection: Upgrade"');
        }
        if (($headers['host'] ?? []) === [] || \trim($headers['host'][0]) === '') {
            return self::reject(400, 'A WebSocket handshake needs a Host header');
        }
        $versions = $headers['sec-websocket-version'] ?? [];
        if (\count($versions) !== 1 || \trim($versions[0]) !== '13') {
            return new HandshakeResult(
                HandshakeOutcome::Rejected,
                426,
                ['Sec-WebSocket-Version' => '13'],
                $versions === [] ? 'No Sec-WebSocket-Version header' : \sprintf('Unsupported WebSocket version %s', \implode(', ', $versions)),
            );
        }
        $keys = $headers['sec-websocket-key'] ?? [];
        $key = \count($keys) === 1 ? \trim($keys[0]) : '';
        if (!self::isValidKey($key)) {
            return self::reject(400, $keys === [] ? 'No Sec-WebSocket-Key header' : 'Sec-WebSocket-Key is not the base64 of 16 bytes');
        }
        if ($this->origins !== null) {
            $origin = ($headers['origin'] ?? [])[0] ?? null;
            if (!$this->origins->allows($origin)) {
                return self::reject(403, \sprintf('Origin %s is not allowed', $origin ?? '(none)'));
            }
        }
        $response = [
            'Upgrade' => 'websocket',
            'Connection' => 'Upgrade',
            'Sec-WebSocket-Accept' => self::acceptKey($key),
        ];
        $subprotocol = $this->chooseSubprotocol(self::tokens($headers['sec-websocket-protocol'] ?? []));
        if ($subprotocol !== null) {
            $response['Sec-WebSocket-Protocol'] = $subprotocol;
        }
        $deflate = $this->deflate?->negotiate($headers['sec-websocket-extensions'] ?? []);
        if ($deflate !== null) {
            $response['Sec-WebSocket-Extensions'] = $deflate->header();
        }

        return new HandshakeResult(HandshakeOutcome::Accepted, 101, $response, '', $subprotocol, $deflate);
    }

    /** Whether $key is the base64 (padded, standard alphabet) of exactly 16 bytes. */
    public static function isValidKey(string $key): bool
    {
        if (\strlen($key) !== 24 || \preg_match('~^[A-Za-z0-9+/]{22}==$~', $key) !== 1) {
            return false;
        }
        $decoded = \base64_decode($key, true);

        return $decoded !== false && \strlen($decoded) === 16;
    }

    /** @param list<string> $offered */
    private function chooseSubprotocol(array $offered): ?string
    {
        foreach ($this->subprotocols as $subprotocol) {
            if (\in_array($subprotocol, $offered, true)) {
                return $subprotocol;
            }
        }

        return null;
    }

    private static function reject(int $status, string $reason): HandshakeResult
    {
        return new HandshakeResult(HandshakeOutcome::Rejected, $status, [], $reason);
    }

    /**
     * The comma-separated tokens of every value of a header, trimmed, empty ones dropped.
     *
     * @param list<string> $values
     *
     * @return list<string>
     */
    private static function tokens(array $values): array
    {
        $tokens = [];
        foreach ($values as $value) {
            foreach (\explode(',', $value) as $token) {
                $token = \trim($token, " \t");
                if ($token !== '') {
                    $tokens[] = $token;
                }
            }
        }

        return $tokens;
    }

    /** @param list<string> $values */
    private static function hasToken(array $values, string $token): bool
    {
        foreach (self::tokens($values) as $candidate) {
            if (\strcasecmp($candidate, $token) === 0) {
                return true;
            }
        }

        return false;
    }
}
