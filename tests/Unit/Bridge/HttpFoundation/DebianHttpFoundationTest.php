<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\HttpFoundation;

use PHPUnit\Framework\TestCase;

/**
 * Framework apps installed from Debian packages load Debian's HttpFoundation 5.4, not the
 * Composer one: the bridge's tests run again against it, in a child PHPUnit.
 *
 * @group httpfoundation-debian
 */
final class DebianHttpFoundationTest extends TestCase
{
    private const DEBIAN = '/usr/share/php/Symfony/Component/HttpFoundation/Request.php';

    public function testBridgeTestsPassAgainstDebiansHttpFoundation(): void
    {
        if (!\is_file(self::DEBIAN)) {
            self::markTestSkipped('php-symfony-http-foundation is not installed');
        }
        $root = \dirname(__DIR__, 4);
        $process = \proc_open(
            [\PHP_BINARY, $root . '/vendor/bin/phpunit', '--bootstrap', __DIR__ . '/debian-bootstrap.php', '--exclude-group', 'httpfoundation-debian', __DIR__],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']],
            $pipes,
            $root,
        );
        self::assertIsResource($process);
        $output = (string) \stream_get_contents($pipes[1]);
        \fclose($pipes[1]);
        $code = \proc_close($process);

        self::assertSame(0, $code, $output);
        self::assertMatchesRegularExpression('/OK \(\d+ tests/', $output);
    }
}
