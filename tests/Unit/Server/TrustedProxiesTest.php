<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

use PHPUnit\Framework\TestCase;
use Spindle\Server\ServerError;
use Spindle\Server\TrustedProxies;

final class TrustedProxiesTest extends TestCase
{
    public function testRangesMatchByPrefix(): void
    {
        $proxies = TrustedProxies::fromList('10.0.0.0/8, 192.168.1.7,fd00::/8,172.16.0.0/12');
        self::assertTrue($proxies->trusts('10.200.3.4'));
        self::assertTrue($proxies->trusts('192.168.1.7'));
        self::assertFalse($proxies->trusts('192.168.1.8'));
        self::assertTrue($proxies->trusts('fd12::1'));
        self::assertFalse($proxies->trusts('fe80::1'));
        self::assertTrue($proxies->trusts('172.31.255.255'));
        self::assertFalse($proxies->trusts('172.32.0.1'));
        self::assertFalse($proxies->trusts('not an address'));
    }

    public function testTheClientIsTheLastUntrustedHop(): void
    {
        $proxies = TrustedProxies::fromList('127.0.0.1,10.0.0.0/8');
        self::assertSame('203.0.113.7', $proxies->clientAddress('127.0.0.1', ['198.51.100.1, 203.0.113.7, 10.1.1.1']));
        self::assertSame('203.0.113.7', $proxies->clientAddress('127.0.0.1', ['198.51.100.1', '203.0.113.7']), 'several header lines are one list');
        self::assertSame('198.51.100.9', $proxies->clientAddress('198.51.100.9', ['203.0.113.7']), 'an untrusted peer is not believed');
        self::assertSame('127.0.0.1', $proxies->clientAddress('127.0.0.1', null));
        self::assertSame('10.1.1.1', $proxies->clientAddress('127.0.0.1', ['10.1.1.1']), 'only proxies: the first of them');
        self::assertSame('127.0.0.1', $proxies->clientAddress('127.0.0.1', ['203.0.113.7, garbage']), 'garbage ends the trust');
        self::assertSame('127.0.0.1', (new TrustedProxies([]))->clientAddress('127.0.0.1', ['203.0.113.7']));
    }

    public function testABadRangeIsRefused(): void
    {
        $this->expectException(ServerError::class);
        TrustedProxies::fromList('10.0.0.0/33');
    }
}
