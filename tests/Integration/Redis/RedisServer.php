<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Redis;

/**
 * A private redis-server for tests: on a free 127.0.0.1 port, no persistence, in a temporary
 * directory; ready once it logged "Ready to accept connections" (no sleeps); stopped by its pid.
 * scripts/test installs redis-server.
 */
final class RedisServer
{
    /** @var resource */
    private $process;
    /** @var resource */
    private $output;
    public readonly int $pid;

    /** @param list<string> $extraArguments more `--name value` options */
    private function __construct(public readonly int $port, public readonly string $directory, array $extraArguments)
    {
        $command = ['redis-server', '--port', (string) $port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
            '--dir', $directory, '--logfile', '', '--daemonize', 'no', '--enable-debug-command', 'yes', ...$extraArguments];
        $pipes = [];
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
        if (!\is_resource($process)) {
            throw new \RuntimeException('Could not start redis-server');
        }
        $this->process = $process;
        $this->output = $pipes[1];
        $this->pid = (int) proc_get_status($process)['pid'];
        $this->waitReady();
    }

    /** @param list<string> $extraArguments */
    public static function start(array $extraArguments = []): self
    {
        if (!is_executable('/usr/bin/redis-server') && trim((string) shell_exec('command -v redis-server')) === '') {
            throw new \RuntimeException('redis-server is not installed (scripts/test installs it)');
        }
        $directory = sys_get_temp_dir() . '/spindle-redis-' . bin2hex(random_bytes(4));
        mkdir($directory);

        return new self(self::freePort(), $directory, $extraArguments);
    }

    public function url(): string
    {
        return 'redis://127.0.0.1:' . $this->port;
    }

    public function stop(): void
    {
        if (!\is_resource($this->process)) {
            return;
        }
        posix_kill($this->pid, SIGTERM);
        $deadline = microtime(true) + 10;
        while (proc_get_status($this->process)['running'] && microtime(true) < $deadline) {
            $read = [$this->output];
            $write = $except = null;
            if (@stream_select($read, $write, $except, 0, 100000) && fread($this->output, 8192) === '') {
                break;
            }
        }
        if (proc_get_status($this->process)['running']) {
            posix_kill($this->pid, SIGKILL);
        }
        fclose($this->output);
        proc_close($this->process);
        foreach (glob($this->directory . '/*') ?: [] as $file) {
            @unlink($file);
        }
        @rmdir($this->directory);
    }

    public function __destruct()
    {
        $this->stop();
    }

    private function waitReady(): void
    {
        $log = '';
        $deadline = microtime(true) + 20;
        while (!str_contains($log, 'Ready to accept connections')) {
            $left = $deadline - microtime(true);
            $read = [$this->output];
            $write = $except = null;
            if ($left <= 0 || @stream_select($read, $write, $except, 0, (int) ($left * 1e6)) === false) {
                break;
            }
            $chunk = fread($this->output, 8192);
            if ($chunk === '' || $chunk === false) {
                if (feof($this->output)) {
                    break;
                }
                continue;
            }
            $log .= $chunk;
        }
        if (!str_contains($log, 'Ready to accept connections')) {
            $this->stop();
            throw new \RuntimeException("redis-server did not become ready:\n" . $log);
        }
        // Keep draining its log so it never blocks on a full pipe.
        stream_set_blocking($this->output, false);
    }

    private static function freePort(): int
    {
        $server = stream_socket_server('tcp://127.0.0.1:0');
        if ($server === false) {
            throw new \RuntimeException('Could not find a free port');
        }
        $name = (string) stream_socket_get_name($server, false);
        fclose($server);

        return (int) substr($name, strrpos($name, ':') + 1);
    }
}
