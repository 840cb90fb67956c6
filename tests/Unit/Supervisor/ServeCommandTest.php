<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\ServeCommand;
use Symfony\Component\Console\Tester\CommandTester;
use Spindle\Bridge\AppFactory;

/** What `spindle serve` refuses before it starts anything: exit status 2 and a message that says why. */
final class ServeCommandTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = \sys_get_temp_dir() . '/spindle-serve-command-' . \bin2hex(\random_bytes(6));
        \mkdir($this->directory);
    }

    protected function tearDown(): void
    {
        \exec('rm -rf ' . \escapeshellarg($this->directory));
    }

    /** @param array<string, string|bool> $input */
    private function serve(array $input): CommandTester
    {
        $tester = new CommandTester(new ServeCommand(__FILE__, new AppFactory()));
        $tester->execute($input);

        return $tester;
    }

    private function file(string $path, string $content = ''): void
    {
        @\mkdir(\dirname($this->directory . '/' . $path), 0777, true);
        \file_put_contents($this->directory . '/' . $path, $content);
    }

    public function testAnUnknownEventLoop(): void
    {
        $tester = $this->serve(['app' => __FILE__, '--event-loop' => 'kqueue']);
        self::assertSame(2, $tester->getStatusCode());
        self::assertStringContainsString('--event-loop must be auto, select or epoll, got "kqueue"', $tester->getDisplay());
    }

    public function testALaravelAppWithoutItsVendorDirectory(): void
    {
        $this->file('artisan');
        $this->file('bootstrap/app.php', '<?php');
        $tester = $this->serve(['app' => $this->directory]);
        self::assertSame(2, $tester->getStatusCode());
        self::assertStringContainsString($this->directory . ' is a Laravel app without vendor/autoload.php: run `composer install` in it first', $tester->getDisplay());
    }

    public function testASymfonyAppWithoutItsVendorDirectory(): void
    {
        $this->file('bin/console');
        $this->file('src/Kernel.php', '<?php');
        $tester = $this->serve(['app' => $this->directory]);
        self::assertSame(2, $tester->getStatusCode());
        self::assertStringContainsString($this->directory . ' is a Symfony app without vendor/autoload.php: run `composer install` in it first', $tester->getDisplay());
    }

    public function testAMissingApp(): void
    {
        $tester = $this->serve(['app' => $this->directory . '/nope.php']);
        self::assertSame(2, $tester->getStatusCode());
        self::assertStringContainsString('Application file or directory ' . $this->directory . '/nope.php does not exist', $tester->getDisplay());
    }

    public function testARelativeStaticDirOfAnAppDirectoryIsLookedForInTheApp(): void
    {
        \mkdir($this->directory . '/public');
        $tester = $this->serve(['app' => $this->directory, '--static-dir' => 'assets']);
        self::assertSame(2, $tester->getStatusCode());
        self::assertStringContainsString('--static-dir assets is not a directory (looked for ' . $this->directory . '/assets)', $tester->getDisplay());
    }

    /** @return iterable<string, array{string, string, string}> */
    public static function badOptions(): iterable
    {
        yield 'workers not a number' => ['--workers', 'abc', '--workers must be a whole number, got "abc"'];
        yield 'no workers' => ['--workers', '0', '--workers must be at least 1, got 0'];
        yield 'port out of range' => ['--port', '70000', '--port must be between 0 and 65535, got 70000'];
        yield 'negative timeout' => ['--request-timeout', '-1', '--request-timeout must not be negative, got -1'];
        yield 'timeout not a number' => ['--header-timeout', 'soon', '--header-timeout must be a number, got "soon"'];
        yield 'header timeout of 0' => ['--header-timeout', '0', '--header-timeout must be positive, got 0'];
        yield 'negative keep-alive timeout' => ['--keepalive-timeout', '-1', '--keepalive-timeout must be positive, got -1'];
        yield 'request line of 0 bytes' => ['--max-request-line', '0', '--max-request-line must be at least 1, got 0'];
        yield 'negative block threshold' => ['--block-threshold', '-1', '--block-threshold must be above 0, got -1'];
        yield 'block threshold of 0' => ['--block-threshold', '0', '--block-threshold must be above 0, got 0'];
        yield 'upload dir missing' => ['--upload-dir', '/nonexistent-spindle-dir', '--upload-dir /nonexistent-spindle-dir is not a directory'];
        yield 'upload dir is a file' => ['--upload-dir', __FILE__, '--upload-dir ' . __FILE__ . ' is not a directory'];
        yield 'static dir missing' => ['--static-dir', '/nonexistent-spindle-dir', '--static-dir /nonexistent-spindle-dir is not a directory'];
    }

    /** @dataProvider badOptions */
    public function testBadOptions(string $option, string $value, string $message): void
    {
        $tester = $this->serve(['app' => __FILE__, $option => $value]);
        self::assertSame(2, $tester->getStatusCode());
        self::assertStringContainsString($message, $tester->getDisplay());
    }
}
