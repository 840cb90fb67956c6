<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Psr15;

use Nyholm\Psr7\Factory\Psr17Factory;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\ServerRequestFactoryInterface;
use Psr\Http\Message\ServerRequestInterface;
use Spindle\Bridge\Psr15\Psr7Bridge;
use Spindle\Http\Request;

/**
 * A request body reaches PSR-7 whole, whether Spindle held it in memory or in a temporary file
 * (a body above --body-buffer-size): through Nyholm's constructor and through plain PSR-17 factories.
 */
final class Psr7BridgeBodyTest extends TestCase
{
    private ?string $path = null;

    protected function tearDown(): void
    {
        if ($this->path !== null && \is_file($this->path)) {
            \unlink($this->path);
        }
    }

    /** @return iterable<string, array{Psr7Bridge}> */
    public static function bridges(): iterable
    {
        yield 'nyholm' => [Psr7Bridge::withNyholm()];
        $factory = new Psr17Factory();
        // Not Nyholm's own factory class: the bridge takes the plain PSR-17 path.
        $requests = new class($factory) implements ServerRequestFactoryInterface {
            public function __construct(private readonly Psr17Factory $factory)
            {
            }

            /** @param array<mixed> $serverParams */
            public function createServerRequest(string $method, $uri, array $serverParams = []): ServerRequestInterface
            {
                return $this->factory->createServerRequest($method, $uri, $serverParams);
            }
        };
        yield 'PSR-17' => [new Psr7Bridge($requests, $factory, $factory, $factory)];
    }

    /** @dataProvider bridges */
    public function testABodyInATemporaryFileIsTheRequestsStream(Psr7Bridge $bridge): void
    {
        $this->path = (string) \tempnam(\sys_get_temp_dir(), 'spindle-test-body-');
        $body = \random_bytes(200000);
        \file_put_contents($this->path, $body);
        $psr = $bridge->toPsr((new Request('POST', '/', '/', '', '1.1', ['host' => ['a']], '', [], [], '127.0.0.1', 1, '127.0.0.1', 80))->withBodyFile($this->path));
        $stream = $psr->getBody();
        self::assertSame(\strlen($body), $stream->getSize());
        self::assertSame($this->path, $stream->getMetadata('uri'));
        self::assertSame($body, (string) $stream);
        $stream->rewind();
        self::assertSame(\substr($body, 0, 1000), $stream->read(1000));
    }

    /** @dataProvider bridges */
    public function testABodyInMemoryIsTheRequestsStream(Psr7Bridge $bridge): void
    {
        $psr = $bridge->toPsr(new Request('POST', '/', '/', '', '1.1', ['host' => ['a']], 'hello'));
        self::assertSame('hello', (string) $psr->getBody());
    }
}
