<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\ControlError;
use Spindle\Supervisor\Daemon;

/**
 * Detaches a small script in a child process. The daemon writes what it sees to the log file
 * and exits by itself; the test only waits for the foreground process it started.
 */
final class DaemonTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = \sys_get_temp_dir() . '/spindle-daemon-' . \bin2hex(\random_bytes(4));
        \mkdir($this->directory);
    }

    protected function tearDown(): void
    {
        foreach (\glob($this->directory . '/*') ?: [] as $file) {
            \unlink($file);
        }
        \rmdir($this->directory);
    }

    public function testDetachesAndWritesStdoutAndStderrToTheLog(): void
    {
        $script = $this->directory . '/detach.php';
        $log = $this->directory . '/daemon.log';
        \file_put_contents($log, "earlier line\n");
        \file_put_contents($script, \sprintf(<<<'PHP'
            <?php
            declare(strict_types=1);
            require %s;
            echo "before detach\n";
            \Spindle\Supervisor\Daemon::detach($argv[1]);
            echo "echo from the daemon\n";
            fwrite(STDERR, "STDERR from the daemon\n");
            file_put_contents('php://stderr', "php://stderr from the daemon\n");
            echo json_encode([
                'pid' => getmypid(),
                'sid' => posix_getsid(0),
                'cwd' => getcwd(),
                'stdin' => stream_get_contents(STDIN),
                'marker' => getenv('SPINDLE_DAEMON_PID'),
                'argv' => array_slice($argv, 1),
            ]), "\n";
            PHP, \var_export(\dirname(__DIR__, 3) . '/vendor/autoload.php', true)));

        $process = \proc_open(
            [\PHP_BINARY, $script, $log, 'extra argument'],
            [0 => ['pipe', 'r'], 1 => ['file', $this->directory . '/foreground.out', 'w'], 2 => ['file', $this->directory . '/foreground.err', 'w']],
            $pipes,
            $this->directory,
        );
        self::assertIsResource($process);
        \fclose($pipes[0]);
        $foregroundPid = \proc_get_status($process)['pid'];
        $deadline = \microtime(true) + 5;
        while (($status = \proc_get_status($process))['running']) {
            self::assertLessThan($deadline, \microtime(true), 'The foreground process did not exit');
            \usleep(10_000);
        }
        \proc_close($process);
        self::assertSame(0, $status['exitcode']);
        self::assertSame("before detach\n", \file_get_contents($this->directory . '/foreground.out'));
        self::assertSame('', \file_get_contents($this->directory . '/foreground.err'));

        $contents = '';
        while (\substr_count($contents, "\n") < 6) {
            self::assertLessThan($deadline, \microtime(true), "The daemon did not write its lines; log:\n" . $contents);
            \usleep(20_000);
            $contents = (string) \file_get_contents($log);
        }
        $lines = \explode("\n", \rtrim($contents, "\n"));
        // The re-executed daemon runs the script from the start; "before detach" now goes to the log.
        self::assertSame([
            'earlier line',
            'before detach',
            'echo from the daemon',
            'STDERR from the daemon',
            'php://stderr from the daemon',
        ], \array_slice($lines, 0, 5));
        $facts = \json_decode($lines[5], true);
        self::assertIsArray($facts, $lines[5]);
        self::assertNotSame($foregroundPid, $facts['pid']);
        self::assertNotSame($facts['pid'], $facts['sid'], 'the daemon is not a session leader');
        self::assertNotSame(\posix_getsid(0), $facts['sid'], 'the daemon has its own session');
        self::assertSame(\realpath($this->directory), $facts['cwd']);
        self::assertSame('', $facts['stdin']);
        self::assertFalse($facts['marker']);
        self::assertSame([$log, 'extra argument'], $facts['argv']);
    }

    public function testUnwritableLogFailsInTheForeground(): void
    {
        $this->expectException(ControlError::class);
        $this->expectExceptionMessage('Cannot open the log file ' . $this->directory . '/missing/daemon.log');
        Daemon::detach($this->directory . '/missing/daemon.log');
    }
}
