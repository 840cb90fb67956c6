<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support\Cluster;

use PHPUnit\Framework\Assert;
use Spindle\Tests\E2E\Support\RawClient;

/** nginx running a given `server`/`upstream` block on 127.0.0.1, in a directory of its own. */
final class Balancer
{
    /** @var resource|null */
    private $process = null;
    private int $errorOffset = 0;

    private function __construct(private readonly string $prefix, public readonly int $port)
    {
    }

    /** @param \Closure(int): string $site the http-level configuration, given the port to listen on */
    public static function start(string $prefix, \Closure $site): self
    {
        $binary = null;
        foreach (['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'] as $candidate) {
            if (\is_executable($candidate)) {
                $binary = $candidate;
                break;
            }
        }
        if ($binary === null) {
            Assert::markTestSkipped('nginx is not installed');
        }
        $socket = \stream_socket_server('tcp://127.0.0.1:0');
        Assert::assertIsResource($socket);
        $name = (string) \stream_socket_get_name($socket, false);
        \fclose($socket);
        $port = (int) \substr($name, (int) \strrpos($name, ':') + 1);

        @\mkdir($prefix . '/logs', 0777, true);
        $paths = '';
        foreach (['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'] as $kind) {
            $paths .= "    {$kind}_temp_path {$prefix}/{$kind};\n";
        }
        $user = \posix_geteuid() === 0 ? "user root;\n" : '';
        \file_put_contents($prefix . '/nginx.conf', $user . "worker_processes 1;\ndaemon off;\npid {$prefix}/nginx.pid;\n"
            . "error_log {$prefix}/logs/error.log;\nevents { worker_connections 1024; }\nhttp {\n"
            . "    access_log {$prefix}/logs/access.log;\n{$paths}\n" . $site($port) . "\n}\n");

        $balancer = new self($prefix, $port);
        $process = \proc_open(
            [$binary, '-e', $prefix . '/logs/error.log', '-p', $prefix, '-c', $prefix . '/nginx.conf'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $prefix . '/logs/stdout', 'w'], 2 => ['file', $prefix . '/logs/stderr', 'w']],
            $pipes,
        );
        Assert::assertIsResource($process, 'nginx could not be started');
        $balancer->process = $process;
        // nginx prints no readiness line: it is ready once its socket takes connections.
        $deadline = \microtime(true) + 10.0;
        while (($client = RawClient::tryConnect($port, 0.5)) === null) {
            if (!\proc_get_status($process)['running'] || \microtime(true) > $deadline) {
                Assert::fail('nginx did not start: ' . $balancer->errors());
            }
            \usleep(20000);
        }
        $client->close();

        return $balancer;
    }

    public function errors(): string
    {
        return @\file_get_contents($this->prefix . '/logs/stderr') . @\file_get_contents($this->prefix . '/logs/error.log');
    }

    /**
     * Upstream errors nginx logged since the last call, by kind: each is a request it passed to
     * another host (or, for "no live upstreams", answered 502).
     *
     * @return array<string, int>
     */
    public function upstreamErrors(): array
    {
        $log = (string) @\file_get_contents($this->prefix . '/logs/error.log');
        $new = (string) \substr($log, $this->errorOffset);
        $this->errorOffset = \strlen($log);
        $counts = [];
        foreach (\explode("\n", $new) as $line) {
            if (\preg_match('/\[error\] \S+ \*\d+ (.*?)(?: while |, client)/', $line, $m) === 1) {
                $kind = (string) \preg_replace('/\(\d+: /', '(', $m[1]);
                $counts[$kind] = ($counts[$kind] ?? 0) + 1;
            }
        }

        return $counts;
    }

    public function stop(): void
    {
        if ($this->process === null) {
            return;
        }
        $pid = \proc_get_status($this->process)['pid'];
        \posix_kill($pid, \SIGTERM);
        \proc_close($this->process);
        $this->process = null;
    }
}
