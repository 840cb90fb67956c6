<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

/**
 * Runs `bin/spindle serve` as a child process for end-to-end tests.
 *
 * The command is started without a shell (proc_open with an array), so pid() is the master's
 * own pid. start() waits for the readiness line on stdout with stream_select, bounded by a
 * deadline; stderr (the log) goes to a temporary file so the server can never block on a full
 * pipe. stop() (also run on destruction) sends SIGTERM, then SIGKILL to the master and its
 * workers if it has not exited in time. Only the started master and its own children are
 * ever signalled.
 */
final class ServerProcess
{
    // A bound on liveness, not on speed: a cold Symfony container build beside three other PHPUnit
    // processes on two cores has taken over 10 s.
    public const READY_TIMEOUT = 20.0;

    /** @var resource|null */
    private $process;
    /** @var resource|null */
    private $stdoutPipe;
    private string $stdout = '';
    private string $stderrFile;
    private int $pid;
    private ?int $port = null;
    private ?int $exitCode = null;

    /**
     * @param list<string> $options e.g. ['--workers=1', '--debug']
     * @param string|null $cwd the directory the command runs in (default: the repository's)
     * @param list<string> $wrapper a command that execs the server (setpriv to run it as another user); pid() stays the master's
     */
    private function __construct(string $app, array $options, ?string $cwd = null, array $wrapper = [])
    {
        $root = \dirname(__DIR__, 3);
        $command = [...$wrapper, \PHP_BINARY, $root . '/bin/spindle', 'serve', $app, '--port=0'];
        $hasWorkers = false;
        foreach ($options as $option) {
            $hasWorkers = $hasWorkers || \str_starts_with($option, '--workers');
            $command[] = $option;
        }
        if (!$hasWorkers) {
            $command[] = '--workers=1';
        }
        $stderrFile = \tempnam(\sys_get_temp_dir(), 'spindle-e2e-log-');
        if ($stderrFile === false) {
            throw new \RuntimeException('Cannot create a temporary log file');
        }
        $this->stderrFile = $stderrFile;
        $process = \proc_open($command, [
            0 => ['file', '/dev/null', 'r'],
            1 => ['pipe', 'w'],
            2 => ['file', $stderrFile, 'w'],
        ], $pipes, $cwd ?? $root);
        if (!\is_resource($process)) {
            throw new \RuntimeException('Cannot start ' . \implode(' ', $command));
        }
        $this->process = $process;
        $this->stdoutPipe = $pipes[1];
        \stream_set_blocking($this->stdoutPipe, false);
        $status = \proc_get_status($process);
        $this->pid = $status['pid'];
    }

    /**
     * Starts the server and waits until it announces that it is listening.
     *
     * @param list<string> $options
     * @param string|null $cwd the directory the command runs in, which a relative $app is relative to (default: the repository's)
     */
    public static function start(string $app, array $options = [], ?string $cwd = null): self
    {
        $server = new self($app, $options, $cwd);
        $server->waitUntilReady();

        return $server;
    }

    /**
     * Starts the server through $wrapper, a command that execs what follows it (setpriv, env),
     * and waits until it announces that it is listening.
     *
     * @param list<string> $wrapper
     * @param list<string> $options
     */
    public static function startThrough(array $wrapper, string $app, array $options = []): self
    {
        $server = new self($app, $options, null, $wrapper);
        $server->waitUntilReady();

        return $server;
    }

    /**
     * Starts the server without waiting for readiness (for servers that are expected to fail).
     *
     * @param list<string> $options
     * @param list<string> $wrapper as for startThrough()
     */
    public static function launch(string $app, array $options = [], array $wrapper = []): self
    {
        return new self($app, $options, null, $wrapper);
    }

    public static function fixture(string $name): string
    {
        return \dirname(__DIR__, 2) . '/fixtures/apps/' . $name;
    }

    public function __destruct()
    {
        $this->stop();
        if (\is_file($this->stderrFile)) {
            @\unlink($this->stderrFile);
        }
    }

    public function pid(): int
    {
        return $this->pid;
    }

    public function port(): int
    {
        if ($this->port === null) {
            throw new \LogicException('The server has not announced a port');
        }

        return $this->port;
    }

    public function url(string $path = '/'): string
    {
        return 'http://127.0.0.1:' . $this->port() . $path;
    }

    /** Everything the server wrote to stdout so far. */
    public function stdout(): string
    {
        $this->readStdout();

        return $this->stdout;
    }

    /** The log the server wrote to stderr so far. */
    public function stderr(): string
    {
        return (string) @\file_get_contents($this->stderrFile);
    }

    /**
     * Waits until the log contains $needle.
     */
    public function waitForLog(string $needle, float $timeout = 5.0): bool
    {
        $deadline = \microtime(true) + $timeout;
        do {
            if (\str_contains($this->stderr(), $needle)) {
                return true;
            }
            \usleep(10000);
        } while (\microtime(true) < $deadline);

        return \str_contains($this->stderr(), $needle);
    }

    public function isRunning(): bool
    {
        $this->poll();

        return $this->exitCode === null;
    }

    public function signal(int $signal): void
    {
        if ($this->isRunning()) {
            \posix_kill($this->pid, $signal);
        }
    }

    /** Waits for the master to exit; returns its exit code, or null on timeout. */
    public function waitForExit(float $timeout): ?int
    {
        $deadline = \microtime(true) + $timeout;
        while ($this->isRunning()) {
            if (\microtime(true) >= $deadline) {
                return null;
            }
            \usleep(10000);
        }

        return $this->exitCode;
    }

    /**
     * The pids of the master's live child processes (its workers), from /proc.
     *
     * @return list<int>
     */
    public function workerPids(): array
    {
        if (!$this->isRunning()) {
            return [];
        }
        $pids = [];
        foreach (\glob('/proc/[0-9]*/stat') ?: [] as $statFile) {
            $stat = @\file_get_contents($statFile);
            if (!\is_string($stat)) {
                continue;
            }
            // "pid (comm) state ppid ...": comm may contain spaces, so split after the last ")".
            $close = \strrpos($stat, ')');
            if ($close === false) {
                continue;
            }
            $fields = \explode(' ', \trim(\substr($stat, $close + 2)));
            if (($fields[1] ?? null) === (string) $this->pid && ($fields[0] ?? 'Z') !== 'Z') {
                $pids[] = (int) \substr($stat, 0, (int) \strpos($stat, ' '));
            }
        }
        \sort($pids);

        return $pids;
    }

    /** Resident memory of a process in bytes (VmRSS), or null when it is gone. */
    public static function rss(int $pid): ?int
    {
        $status = @\file_get_contents('/proc/' . $pid . '/status');
        if (!\is_string($status) || \preg_match('/^VmRSS:\s+(\d+)\s+kB/m', $status, $m) !== 1) {
            return null;
        }

        return (int) $m[1] * 1024;
    }

    /** SIGTERM, then SIGKILL (master and workers) if it does not exit within $timeout. */
    public function stop(float $timeout = 5.0): ?int
    {
        $process = $this->process;
        if ($process === null) {
            return $this->exitCode;
        }
        if ($this->isRunning()) {
            \posix_kill($this->pid, \SIGTERM);
            if ($this->waitForExit($timeout) === null) {
                $workers = $this->workerPids();
                \posix_kill($this->pid, \SIGKILL);
                foreach ($workers as $worker) {
                    \posix_kill($worker, \SIGKILL);
                }
                $this->waitForExit(5.0);
            }
        }
        $this->readStdout();
        if (\is_resource($this->stdoutPipe)) {
            \fclose($this->stdoutPipe);
        }
        $this->stdoutPipe = null;
        \proc_close($process);
        $this->process = null;

        return $this->exitCode;
    }

    private function waitUntilReady(): void
    {
        $deadline = \microtime(true) + self::READY_TIMEOUT;
        while (\preg_match('#Spindle listening on https?://127\.0\.0\.1:(\d+)\n#', $this->stdout, $m) !== 1) {
            $left = $deadline - \microtime(true);
            if ($left <= 0 || !\is_resource($this->stdoutPipe)) {
                $this->failStart('did not announce readiness within ' . self::READY_TIMEOUT . ' s');
            }
            $read = [$this->stdoutPipe];
            $write = $except = null;
            $ready = @\stream_select($read, $write, $except, (int) $left, (int) (($left - (int) $left) * 1e6));
            if ($ready === false) {
                $this->failStart('stream_select failed');
            }
            if ($ready > 0) {
                $chunk = \fread($this->stdoutPipe, 8192);
                if ($chunk === false || ($chunk === '' && \feof($this->stdoutPipe))) {
                    $this->failStart('closed its stdout before announcing readiness');
                }
                $this->stdout .= $chunk;
            }
        }
        $this->port = (int) $m[1];
    }

    private function failStart(string $why): never
    {
        $this->stop(2.0);

        throw new \RuntimeException(\sprintf(
            "The server %s (exit code %s).\nstdout:\n%s\nstderr:\n%s",
            $why,
            \var_export($this->exitCode, true),
            $this->stdout,
            $this->stderr(),
        ));
    }

    private function readStdout(): void
    {
        if (!\is_resource($this->stdoutPipe)) {
            return;
        }
        while (true) {
            $chunk = @\fread($this->stdoutPipe, 8192);
            if (!\is_string($chunk) || $chunk === '') {
                return;
            }
            $this->stdout .= $chunk;
        }
    }

    private function poll(): void
    {
        if ($this->exitCode !== null || $this->process === null) {
            return;
        }
        $status = \proc_get_status($this->process);
        if (!$status['running']) {
            // proc_get_status reports the real exit code only once; keep it.
            $this->exitCode = $status['signaled'] ? 128 + $status['termsig'] : $status['exitcode'];
        }
    }
}
