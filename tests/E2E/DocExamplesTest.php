<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;

/**
 * The application files printed in README.md and docs/applications.md, copied as they are into a
 * file of their own (with "<?php" added where the page leaves it out), serve what the page says.
 */
final class DocExamplesTest extends E2ETestCase
{
    /** @var list<string> */
    private static array $files = [];

    public static function tearDownAfterClass(): void
    {
        parent::tearDownAfterClass();
        foreach (self::$files as $file) {
            @\unlink($file);
        }
        self::$files = [];
    }

    /** The $index-th ```php block of the page, written to a temporary app file. */
    private static function example(string $page, int $index): string
    {
        $text = (string) \file_get_contents(\dirname(__DIR__, 2) . '/' . $page);
        \preg_match_all('/```php\n(.*?)```/s', $text, $m);
        self::assertArrayHasKey($index, $m[1], "{$page} has a PHP example number {$index}");
        $code = $m[1][$index];
        if (!\str_starts_with($code, '<?php')) {
            $code = "<?php\n" . $code;
        }
        $file = \sys_get_temp_dir() . '/spindle-doc-example-' . \getmypid() . '-' . \count(self::$files) . '.php';
        \file_put_contents($file, $code);
        self::$files[] = $file;

        return $file;
    }

    public function testReadmeQuickStart(): void
    {
        $server = self::sharedServer(self::example('README.md', 0));
        $response = self::rawRequest($server, self::get('/world', "Connection: close\r\n"));
        self::assertSame(200, $response->status, $response->raw);
        self::assertSame('Hello /world', $response->body);
    }

    public function testStreamingExampleOfTheApplicationsPage(): void
    {
        $server = self::sharedServer(self::example('docs/applications.md', 0));
        $client = new RawClient($server->port());
        $client->send(self::get('/'));
        self::assertTrue($client->waitFor("data: tick 1\n\n", 5.0), 'first event: ' . $client->buffered());
        self::assertStringContainsString('HTTP/1.1 200 OK', $client->buffered());
        self::assertStringContainsString('text/event-stream', $client->buffered());
        $client->close();
        // Every path streams; a client that left does not keep the next one waiting.
        $next = new RawClient($server->port());
        $next->send(self::get('/again'));
        self::assertTrue($next->waitFor("data: tick 1\n\n", 5.0), 'first event: ' . $next->buffered());
        $next->close();
    }
}
