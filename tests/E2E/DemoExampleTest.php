<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/** The bundled demo (what `bin/spindle serve` runs without an APP) answers on each of its pages. */
final class DemoExampleTest extends E2ETestCase
{
    private static function server(): ServerProcess
    {
        return self::sharedServer(\dirname(__DIR__, 2) . '/examples/demo.php');
    }

    public function testPages(): void
    {
        $page = self::curl(['-s', self::server()->url('/')]);
        self::assertStringContainsString('Spindle is serving this page', $page['out']);
        self::assertSame('Hello World', self::curl(['-s', self::server()->url('/hello')])['out']);
        self::assertSame("Slept 0.05 s\n", self::curl(['-s', self::server()->url('/sleep?s=0.05')])['out']);
        self::assertSame(404, self::parseCurlResponse(self::curl(['-s', '-i', self::server()->url('/nope')])['out'])['status']);
    }

    public function testEventsStream(): void
    {
        $events = self::curl(['-s', '-N', '--max-time', '10', self::server()->url('/events')]);
        self::assertSame(10, \substr_count($events['out'], "\n\n"));
        self::assertStringContainsString("id: 10\ndata: tick 10", $events['out']);
    }

    public function testUpload(): void
    {
        $file = (string) \tempnam(\sys_get_temp_dir(), 'spindle-demo');
        \file_put_contents($file, \str_repeat('x', 1000));
        try {
            $result = self::curl(['-s', '-F', 'files[]=@' . $file . ';filename=a.txt;type=text/plain', self::server()->url('/upload')]);
            self::assertSame("a.txt (1000 bytes, text/plain)\n", $result['out']);
        } finally {
            @\unlink($file);
        }
    }
}
