<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Doctrine;

use PHPUnit\Framework\TestCase;

/**
 * The Doctrine bridge's tests (tests/Unit/Bridge/Doctrine and this directory) run again on DBAL 3,
 * as Symfony 5.4 apps have it: each in a PHPUnit of its own whose bootstrap
 * (other-dbal-bootstrap.php) puts the DBAL 3 that the Symfony 5.4 fixture installs
 * (tests/fixtures/symfony-app/vendor, with DoctrineBundle 2.3) before the DBAL 4 of vendor/.
 *
 * @group dbal3-runner
 */
final class Dbal3Test extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function directories(): iterable
    {
        yield 'unit' => ['tests/Unit/Bridge/Doctrine'];
        yield 'integration' => ['tests/Integration/Doctrine'];
    }

    /** @dataProvider directories */
    public function testTheBridgesTestsPassOnDbal3(string $directory): void
    {
        $root = \dirname(__DIR__, 3);
        $vendor = $root . '/tests/fixtures/symfony-app/vendor';
        if (!\is_file($vendor . '/doctrine/dbal/composer.json')) {
            self::fail("The Symfony 5.4 fixture is not installed (no DBAL 3 in $vendor): run scripts/test");
        }
        $command = [
            \PHP_BINARY, $root . '/vendor/bin/phpunit',
            '--bootstrap', $root . '/tests/Integration/Doctrine/other-dbal-bootstrap.php',
            '--exclude-group', 'dbal3-runner',
            '--colors=never',
            $root . '/' . $directory,
        ];
        $environment = \getenv();
        $environment['SPINDLE_DBAL_VENDOR'] = $vendor;
        $process = \proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, $root, $environment);
        self::assertIsResource($process);
        $output = (string) \stream_get_contents($pipes[1]);
        $status = \proc_close($process);

        // The bootstrap names the DBAL it loaded.
        self::assertMatchesRegularExpression('/^Doctrine DBAL 3\.\d+\.\d+ from /m', $output, $output);
        self::assertSame(0, $status, $output);
        self::assertMatchesRegularExpression('/^OK \(\d+ tests?, \d+ assertions?\)$/m', $output, $output);
    }
}
