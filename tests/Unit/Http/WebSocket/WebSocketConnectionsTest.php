<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Http\WebSocket;

use PHPUnit\Framework\TestCase;
use Spindle\Http\Request;
use Spindle\Http\WebSocket\WebSocketConnections;

/**
 * A worker's WebSocket tally: the worker's cap (503) before the address's (429), refusals counted
 * by limit, an address freed as its connections close, the client address a proxy forwarded, and
 * limits that make no sense refused.
 */
final class WebSocketConnectionsTest extends TestCase
{
    private static function from(string $address, ?string $forwardedFor = null): Request
    {
        return new Request('GET', '/ws', '/ws', '', '1.1', $forwardedFor === null ? [] : ['x-forwarded-for' => [$forwardedFor]], remoteAddress: $address);
    }

    public function testTheWorkersCapComesBeforeTheAddresssAndBothAreCounted(): void
    {
        $tally = new WebSocketConnections();
        $tally->limit(3, 2, 10.0);
        foreach (['10.0.0.1', '10.0.0.1'] as $address) {
            self::assertNull($tally->refusal(self::from($address)));
            $tally->opened($address);
        }
        self::assertSame([429, '10.0.0.1 holds its maximum of 2 WebSocket connections to this server'], $tally->refusal(self::from('10.0.0.1')));
        self::assertNull($tally->refusal(self::from('10.0.0.2')));
        $tally->opened('10.0.0.2');
        self::assertSame(503, $tally->refusal(self::from('10.0.0.3'))[0] ?? null);
        self::assertSame(['address' => 1, 'worker' => 1], $tally->refused + ['address' => 0]);
        self::assertSame(3, $tally->open());

        $tally->closed('10.0.0.1', 1000);
        $tally->closed('10.0.0.2', 1006);
        self::assertNull($tally->refusal(self::from('10.0.0.1')), 'a place freed, and the address below its cap');
        self::assertSame([1000 => 1, 1006 => 1], $tally->closed);
        self::assertSame(3, $tally->opened);
        self::assertSame(1, $tally->open());
    }

    public function testWithoutLimitsNothingIsRefused(): void
    {
        $tally = new WebSocketConnections();
        for ($i = 0; $i < 1000; ++$i) {
            self::assertNull($tally->refusal(self::from('10.0.0.1')));
            $tally->opened('10.0.0.1');
        }
        self::assertSame([], $tally->refused);
        self::assertSame(0.0, $tally->openTimeout());
    }

    public function testTheAddressCanComeFromATrustedProxy(): void
    {
        $tally = new WebSocketConnections();
        $tally->limit(0, 1, 0.0, static fn (Request $r): string => $r->headers['x-forwarded-for'][0] ?? $r->remoteAddress);
        $first = self::from('127.0.0.1', '203.0.113.7');
        self::assertSame('203.0.113.7', $tally->addressOf($first));
        $tally->opened($tally->addressOf($first));
        self::assertSame(429, $tally->refusal(self::from('127.0.0.1', '203.0.113.7'))[0] ?? null);
        self::assertNull($tally->refusal(self::from('127.0.0.1', '203.0.113.8')));
    }

    public function testNegativeLimitsAreRefused(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('WebSocket limits are 0 or more');
        (new WebSocketConnections())->limit(-1, 0, 0.0);
    }
}
