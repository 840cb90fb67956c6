<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\HttpClient;

/**
 * tests/fixtures/http-client/server.php in a child process on a port of its own choosing, ready
 * once it has printed its "listening" line; stopped by its pid.
 */
final class FakeServer
{
    /** @param resource $process */
    private function __construct(private $process, public readonly int $port)
    {
    }

    public static function start(): self
    {
        $script = \dirname(__DIR__, 2) . '/fixtures/http-client/server.php';
        $process = \proc_open([\PHP_BINARY, $script, \dirname(__DIR__, 3) . '/vendor/autoload.php'], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        if ($process === false) {
            throw new \RuntimeException('Could not start the fake server');
        }
        $read = [$pipes[1]];
        $none = null;
        $line = '';
        if (\stream_select($read, $none, $none, 10) === 1) {
            $line = (string) \fgets($pipes[1]);
        }
        \fclose($pipes[1]);
        if (\preg_match('/^listening (\d+)/', $line, $m) !== 1) {
            \proc_terminate($process);
            throw new \RuntimeException('The fake server did not start: ' . $line);
        }

        return new self($process, (int) $m[1]);
    }

    public function url(string $path): string
    {
        return 'http://127.0.0.1:' . $this->port . $path;
    }

    public function stop(): void
    {
        $status = \proc_get_status($this->process);
        if ($status['running']) {
            \posix_kill($status['pid'], \SIGKILL);
        }
        \proc_close($this->process);
    }
}
