<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Redis;

/**
 * One process of tests/ThirdParty/phpredis/run.php (a side, a version) read as it goes; it runs
 * the tests the other processes sharing its claim file have not taken. A process that dies in a
 * test, or sends nothing for $hang seconds (then it is killed, by its pid), has that test recorded
 * as failed and is started again (it goes on with the tests not taken yet).
 *
 * @phpstan-import-type Outcome from PhpRedisSuiteTest
 */
final class PhpRedisSuiteShard
{
    /** @var array<string, Outcome> */
    public array $results = [];
    /** @var resource|null */
    private $process = null;
    /** @var resource|null */
    private $stdout = null;
    private string $stderrFile;
    private string $buffer = '';
    private ?string $current = null;
    private float $lastOutput = 0.0;
    private bool $done = false;

    public function __construct(
        public readonly string $side,
        public readonly string $version,
        private readonly string $claimFile,
        private readonly int $port,
        private readonly ?string $iniDirectory,
        private readonly int $hang,
        /** @var list<string> these tests only (all when empty) */
        private readonly array $only = [],
    ) {
        $this->stderrFile = (string) tempnam(sys_get_temp_dir(), 'spindle-phpredis-err-');
        $this->start();
    }

    public function done(): bool
    {
        return $this->done;
    }

    /** @return resource|null */
    public function stdout()
    {
        return $this->stdout;
    }

    /** Reads what the process wrote; restarts it after a test it died or hung in. */
    public function poll(): void
    {
        if ($this->done || $this->stdout === null) {
            return;
        }
        $chunk = fread($this->stdout, 65536);
        if (\is_string($chunk) && $chunk !== '') {
            $this->buffer .= $chunk;
            $this->lastOutput = microtime(true);
            while (($end = strpos($this->buffer, "\n")) !== false) {
                $this->line(substr($this->buffer, 0, $end));
                $this->buffer = substr($this->buffer, $end + 1);
            }
        }
        $hung = microtime(true) - $this->lastOutput > $this->hang;
        if (!feof($this->stdout) && !$hung) {
            return;
        }
        $status = $this->stop();
        if ($this->current === null) {
            if ($status !== 0) {
                $this->results['(process)'] = ['outcome' => 'error', 'message' => "run.php exited with $status: " . $this->stderr(), 'issues' => []];
            }
            $this->done = true;

            return;
        }
        $this->results[$this->current] = ['outcome' => 'error', 'message' => ($hung ? "no result after {$this->hang} s" : "the process died (status $status)") . ': ' . $this->stderr(), 'issues' => []];
        $this->current = null;
        $this->start();
    }

    /** Ends the process: waits for it when it closed its output, kills it (by its pid) otherwise. */
    public function stop(): int
    {
        if ($this->process === null) {
            return 0;
        }
        $finished = $this->stdout === null || feof($this->stdout);
        if (!$finished) {
            $status = proc_get_status($this->process);
            if ($status['running']) {
                posix_kill($status['pid'], \SIGKILL);
            }
        }
        if (\is_resource($this->stdout)) {
            fclose($this->stdout);
        }
        $this->stdout = null;
        $exit = proc_close($this->process);
        $this->process = null;

        return $finished ? $exit : -9;
    }

    public function __destruct()
    {
        $this->stop();
        @unlink($this->stderrFile);
    }

    private function start(): void
    {
        $command = [\PHP_BINARY, \dirname(__DIR__, 2) . '/ThirdParty/phpredis/run.php', $this->side, $this->version, "--port={$this->port}", "--claim={$this->claimFile}"];
        if ($this->only !== []) {
            $command[] = '--only=' . implode(',', $this->only);
        }
        $environment = getenv();
        if ($this->iniDirectory !== null) {
            $environment['PHP_INI_SCAN_DIR'] = $this->iniDirectory;
        }
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', $this->stderrFile, 'w']], $pipes, null, $environment);
        if (!\is_resource($process)) {
            throw new \RuntimeException('Could not start tests/ThirdParty/phpredis/run.php');
        }
        $this->process = $process;
        $this->stdout = $pipes[1];
        stream_set_blocking($this->stdout, false);
        $this->lastOutput = microtime(true);
    }

    private function line(string $line): void
    {
        $decoded = json_decode($line, true);
        if (!\is_array($decoded)) {
            return;
        }
        if (isset($decoded['start']) && \is_string($decoded['start'])) {
            $this->current = $decoded['start'];

            return;
        }
        if (isset($decoded['test']) && \is_string($decoded['test'])) {
            $this->results[$decoded['test']] = [
                'outcome' => (string) ($decoded['outcome'] ?? 'error'),
                'message' => (string) ($decoded['message'] ?? ''),
                'issues' => array_values(array_map('strval', (array) ($decoded['issues'] ?? []))),
            ];
            $this->current = null;
        }
    }

    private function stderr(): string
    {
        $lines = array_filter(explode("\n", (string) file_get_contents($this->stderrFile)), static fn (string $l): bool => $l !== '' && !str_contains($l, 'Deprecated'));

        return implode(' | ', \array_slice($lines, -3));
    }
}
