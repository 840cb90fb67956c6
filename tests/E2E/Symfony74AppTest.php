<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The tests of SymfonyAppTest on the Symfony 7.4 fixture app (tests/fixtures/symfony74-app), and what only 7.4 does.
 *
 * @group frameworks
 */
final class Symfony74AppTest extends SymfonyAppTest
{
    protected static function app(): string
    {
        return \dirname(__DIR__) . '/fixtures/symfony74-app';
    }

    public function testResponseSendHeaders103SendsEarlyHintsUnchanged(): void
    {
        // Symfony sends a 103 only where headers_send() exists (FrankenPHP's): Spindle defines it.
        $server = ServerProcess::start(static::app(), ['--workers=1', '--early-hints-http1']);
        try {
            foreach (['--http2-prior-knowledge' => 'HTTP/2 103', '--http1.1' => 'HTTP/1.1 103 Early Hints'] as $flag => $line) {
                $output = self::curl(['-s', '-i', $flag, $server->url('/early-hints')])['out'];
                self::assertStringStartsWith($line, $output, $flag);
                $interim = \substr($output, 0, (int) \strpos($output, "\r\n\r\n"));
                self::assertMatchesRegularExpression('~^link: </app\.css>; rel=preload; as=style\r?$~mi', $interim);
                self::assertMatchesRegularExpression('~^link: </app\.js>; rel=modulepreload\r?$~mi', $interim);
                $final = self::parseCurlResponse($output);
                self::assertSame(200, $final['status']);
                self::assertSame("page after hints\n", $final['body']);
                self::assertArrayNotHasKey('link', $final['headers'], 'the hints are not part of the final response');
            }
        } finally {
            $server->stop();
        }
    }
}
