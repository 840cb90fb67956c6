<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support\Cluster;

/**
 * One Spindle server in a host's network namespace, listening on its address, port 8080.
 * Every method returns at once (the test calls them from the load's tick): start() launches,
 * isReady() reads the readiness line when it came, stop() sends SIGTERM, kill() SIGKILLs the
 * master and its workers, hasExited() polls.
 */
final class Host
{
    public const PORT = 8080;

    /** @var resource|null */
    private $process = null;
    /** @var resource|null */
    private $stdout = null;
    private string $output = '';
    private int $pid = 0;
    private bool $ready = false;
    private string $logFile;

    /** @param array<string, string> $env */
    public function __construct(
        public readonly string $name,
        public readonly string $namespace,
        public readonly string $address,
        private readonly array $env,
        string $logDir,
    ) {
        $this->logFile = $logDir . '/' . $name . '.log';
    }

    /** Launches `spindle serve $app` in the namespace; does not wait. */
    public function start(string $app): void
    {
        $root = \dirname(__DIR__, 4);
        $command = [
            'ip', 'netns', 'exec', $this->namespace,
            \PHP_BINARY, $root . '/bin/spindle', 'serve', $app,
            '--host=' . $this->address, '--port=' . self::PORT, '--workers=1', '--drain-timeout=5',
            '--pid-file=' . \dirname($this->logFile) . '/' . $this->name . '.pid',
            '--health-path=/healthz', '--ready-path=/readyz',
        ];
        $process = \proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', $this->logFile, 'a']], $pipes, $root, $this->env + ['SPINDLE_HOST_NAME' => $this->name] + \getenv());
        if (!\is_resource($process)) {
            throw new \RuntimeException('Cannot start ' . $this->name);
        }
        $this->process = $process;
        $this->stdout = $pipes[1];
        \stream_set_blocking($this->stdout, false);
        // `ip netns exec` runs the command in its own process: the pid is the master's.
        $this->pid = \proc_get_status($process)['pid'];
        $this->output = '';
        $this->ready = false;
    }

    public function isReady(): bool
    {
        if (!$this->ready && $this->stdout !== null) {
            $this->output .= (string) \fread($this->stdout, 8192);
            $this->ready = \str_contains($this->output, 'Spindle listening on http://' . $this->address . ':' . self::PORT);
        }

        return $this->ready;
    }

    public function stop(): void
    {
        if ($this->pid > 0) {
            \posix_kill($this->pid, \SIGTERM);
        }
    }

    /** SIGKILL to the master and its workers at once: the host dies. */
    public function kill(): void
    {
        $pids = $this->workerPids();
        if ($this->pid > 0) {
            \posix_kill($this->pid, \SIGKILL);
        }
        foreach ($pids as $pid) {
            \posix_kill($pid, \SIGKILL);
        }
    }

    public function hasExited(): bool
    {
        if ($this->process === null) {
            return true;
        }
        if (\proc_get_status($this->process)['running']) {
            return false;
        }
        $this->close();

        return true;
    }

    /** Waits (bounded) for the server to exit, killing it if it does not. */
    public function shutdown(float $timeout = 8.0): void
    {
        if ($this->process === null) {
            return;
        }
        $this->stop();
        $deadline = \microtime(true) + $timeout;
        while (!$this->hasExited()) {
            if (\microtime(true) > $deadline) {
                $this->kill();
            }
            \usleep(20000);
        }
    }

    public function log(): string
    {
        return (string) @\file_get_contents($this->logFile);
    }

    /** @return list<int> the master's children */
    public function workerPids(): array
    {
        $pids = [];
        foreach (\glob('/proc/[0-9]*/stat') ?: [] as $file) {
            $stat = (string) @\file_get_contents($file);
            $close = \strrpos($stat, ')');
            if ($close === false) {
                continue;
            }
            $fields = \explode(' ', \substr($stat, $close + 2));
            if (($fields[1] ?? '') === (string) $this->pid) {
                $pids[] = (int) $stat;
            }
        }

        return $pids;
    }

    private function close(): void
    {
        if ($this->stdout !== null) {
            \fclose($this->stdout);
            $this->stdout = null;
        }
        if ($this->process !== null) {
            \proc_close($this->process);
            $this->process = null;
        }
        $this->pid = 0;
    }
}
