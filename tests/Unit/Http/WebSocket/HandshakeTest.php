<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\WebSocket;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Request;
use Spindle\Http\WebSocket\ClientHandshake;
use Spindle\Http\WebSocket\HandshakeException;
use Spindle\Http\WebSocket\HandshakeOutcome;
use Spindle\Http\WebSocket\OriginPolicy;
use Spindle\Http\WebSocket\ServerHandshake;

final class HandshakeTest extends TestCase
{
    private const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

    /**
     * @param array<string, list<string>|null> $overrides null drops the header
     *
     * @return array<string, list<string>>
     */
    private static function headers(array $overrides = []): array
    {
        return \array_filter(\array_merge([
            'host' => ['example.com'],
            'upgrade' => ['websocket'],
            'connection' => ['keep-alive, Upgrade'],
            'sec-websocket-key' => [self::KEY],
            'sec-websocket-version' => ['13'],
        ], $overrides), static fn (?array $v): bool => $v !== null);
    }

    public function testTheRfcExampleIsAccepted(): void
    {
        $result = (new ServerHandshake())->evaluate('GET', '1.1', self::headers());
        self::assertSame(HandshakeOutcome::Accepted, $result->outcome);
        self::assertSame(101, $result->status);
        // RFC 6455 §1.3's worked example.
        self::assertSame('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=', $result->headers['Sec-WebSocket-Accept']);
        self::assertSame('websocket', $result->headers['Upgrade']);
        self::assertSame('Upgrade', $result->headers['Connection']);
        self::assertArrayNotHasKey('Sec-WebSocket-Protocol', $result->headers);
        self::assertArrayNotHasKey('Sec-WebSocket-Extensions', $result->headers);
    }

    public function testARequestObjectWorksToo(): void
    {
        $request = new Request('GET', '/chat', '/chat', '', '1.1', self::headers(['upgrade' => ['WebSocket']]));
        self::assertTrue((new ServerHandshake())->evaluateRequest($request)->isAccepted());
    }

    /** @return array<string, array{string, string, array<string, list<string>|null>, HandshakeOutcome, int}> */
    public static function requests(): array
    {
        return [
            'no Upgrade' => ['GET', '1.1', ['upgrade' => null], HandshakeOutcome::NotWebSocket, 0],
            'Upgrade to h2c' => ['GET', '1.1', ['upgrade' => ['h2c']], HandshakeOutcome::NotWebSocket, 0],
            'POST' => ['POST', '1.1', [], HandshakeOutcome::Rejected, 400],
            'HTTP/1.0' => ['GET', '1.0', [], HandshakeOutcome::Rejected, 400],
            'no Connection: upgrade' => ['GET', '1.1', ['connection' => ['keep-alive']], HandshakeOutcome::Rejected, 400],
            'no Host' => ['GET', '1.1', ['host' => null], HandshakeOutcome::Rejected, 400],
            'version 8' => ['GET', '1.1', ['sec-websocket-version' => ['8']], HandshakeOutcome::Rejected, 426],
            'no version' => ['GET', '1.1', ['sec-websocket-version' => null], HandshakeOutcome::Rejected, 426],
            'no key' => ['GET', '1.1', ['sec-websocket-key' => null], HandshakeOutcome::Rejected, 400],
            'key of 15 bytes' => ['GET', '1.1', ['sec-websocket-key' => [\base64_encode(\str_repeat('k', 15))]], HandshakeOutcome::Rejected, 400],
            'key of 17 bytes' => ['GET', '1.1', ['sec-websocket-key' => [\base64_encode(\str_repeat('k', 17))]], HandshakeOutcome::Rejected, 400],
            'key not base64' => ['GET', '1.1', ['sec-websocket-key' => ['!!!!!!!!!!!!!!!!!!!!!!==']], HandshakeOutcome::Rejected, 400],
            'two keys' => ['GET', '1.1', ['sec-websocket-key' => [self::KEY, self::KEY]], HandshakeOutcome::Rejected, 400],
            'key with spaces around' => ['GET', '1.1', ['sec-websocket-key' => [' ' . self::KEY . ' ']], HandshakeOutcome::Accepted, 101],
        ];
    }

    /**
     * @param array<string, list<string>|null> $overrides
     *
     * @dataProvider requests
     */
    public function testBadRequestsGetTheStatusRfc6455Implies(string $method, string $version, array $overrides, HandshakeOutcome $outcome, int $status): void
    {
        $result = (new ServerHandshake())->evaluate($method, $version, self::headers($overrides));
        self::assertSame($outcome, $result->outcome, $result->reason);
        self::assertSame($status, $result->status);
        if ($status === 426) {
            self::assertSame(['Sec-WebSocket-Version' => '13'], $result->headers);
        }
        if ($outcome === HandshakeOutcome::Rejected) {
            self::assertNotSame('', $result->reason);
        }
    }

    public function testTheServersFirstSubprotocolTheClientOffersIsChosen(): void
    {
        $handshake = new ServerHandshake(['v2.chat', 'v1.chat']);
        $result = $handshake->evaluate('GET', '1.1', self::headers(['sec-websocket-protocol' => ['v1.chat, other', 'v2.chat']]));
        self::assertSame('v2.chat', $result->subprotocol);
        self::assertSame('v2.chat', $result->headers['Sec-WebSocket-Protocol']);
        $none = $handshake->evaluate('GET', '1.1', self::headers(['sec-websocket-protocol' => ['mqtt']]));
        self::assertTrue($none->isAccepted());
        self::assertNull($none->subprotocol);
        self::assertArrayNotHasKey('Sec-WebSocket-Protocol', $none->headers);
    }

    public function testOriginsAreChecked(): void
    {
        $handshake = new ServerHandshake([], new OriginPolicy(['https://app.example.com', 'https://*.example.org']));
        self::assertTrue($handshake->evaluate('GET', '1.1', self::headers(['origin' => ['https://app.example.com']]))->isAccepted());
        self::assertTrue($handshake->evaluate('GET', '1.1', self::headers(['origin' => ['https://a.b.example.org']]))->isAccepted());
        $refused = $handshake->evaluate('GET', '1.1', self::headers(['origin' => ['https://evil.example']]));
        self::assertSame(403, $refused->status);
        self::assertTrue($handshake->evaluate('GET', '1.1', self::headers())->isAccepted(), 'no Origin: not a browser');
    }

    public function testOriginPolicyPatterns(): void
    {
        $policy = new OriginPolicy(['https://app.example.com', '*.example.org', 'localhost']);
        self::assertTrue($policy->allows('https://APP.example.com'));
        self::assertFalse($policy->allows('http://app.example.com'), 'the scheme counts when given');
        self::assertFalse($policy->allows('https://app.example.com:8443'), 'so does the port');
        self::assertFalse($policy->allows('https://app.example.com.evil.net'));
        self::assertTrue($policy->allows('http://x.example.org:8080'));
        self::assertTrue($policy->allows('https://a.b.example.org'));
        self::assertFalse($policy->allows('https://example.org'), '* needs at least one label');
        self::assertFalse($policy->allows('https://xexample.org'));
        self::assertTrue($policy->allows('http://localhost:3000'));
        self::assertFalse($policy->allows('null'));
        self::assertTrue($policy->allows(null));
        self::assertFalse((new OriginPolicy(['https://a.example'], true))->allows(null));
        self::assertTrue(OriginPolicy::any()->allows('https://anything.test'));
    }

    public function testTheClientHandshakeRoundTrips(): void
    {
        $client = new ClientHandshake('127.0.0.1:8080', '/app/key', ['v1.chat']);
        [$head] = \explode("\r\n\r\n", $client->request());
        $lines = \explode("\r\n", $head);
        self::assertSame('GET /app/key HTTP/1.1', $lines[0]);
        $headers = [];
        foreach (\array_slice($lines, 1) as $line) {
            [$name, $value] = \explode(':', $line, 2);
            $headers[\strtolower($name)][] = \trim($value);
        }
        $result = (new ServerHandshake(['v1.chat']))->evaluate('GET', '1.1', $headers);
        self::assertTrue($result->isAccepted());
        $response = "HTTP/1.1 101 Switching Protocols\r\n";
        foreach ($result->headers as $name => $value) {
            $response .= "{$name}: {$value}\r\n";
        }
        [$status, $responseHeaders] = ClientHandshake::parseResponseHead($response);
        self::assertSame('v1.chat', $client->validate($status, $responseHeaders));
    }

    public function testTheClientRefusesABadAnswer(): void
    {
        $client = new ClientHandshake('h', '/', [], [], self::KEY);
        $good = ['upgrade' => ['websocket'], 'connection' => ['Upgrade'], 'sec-websocket-accept' => ['s3pPLMBiTxaQ9kYGzzhZRbK+xOo=']];
        self::assertNull($client->validate(101, $good));
        foreach ([
            [200, $good],
            [101, ['sec-websocket-accept' => ['wrong']] + $good],
            [101, ['sec-websocket-protocol' => ['unoffered']] + $good],
            [101, ['sec-websocket-extensions' => ['permessage-deflate']] + $good],
            [101, ['upgrade' => ['h2c']] + $good],
        ] as $i => [$status, $headers]) {
            try {
                $client->validate($status, $headers);
                self::fail("answer {$i} was accepted");
            } catch (HandshakeException) {
                self::addToAssertionCount(1);
            }
        }
    }
}
