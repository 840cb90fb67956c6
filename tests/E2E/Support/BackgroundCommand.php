<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

/**
 * A command run in the background (never through a shell), its output collected in temporary
 * files so it can never block on a pipe.
 */
final class BackgroundCommand
{
    /** @var resource|null */
    private $process;
    private readonly float $started;
    private ?int $code = null;

    /** @param list<string> $command */
    private function __construct(array $command, private readonly string $out, private readonly string $err)
    {
        $this->started = \microtime(true);
        $process = \proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $err, 'w']], $pipes);
        if (!\is_resource($process)) {
            throw new \RuntimeException('Cannot start ' . \implode(' ', $command));
        }
        $this->process = $process;
    }

    public function __destruct()
    {
        $this->kill();
        @\unlink($this->out);
        @\unlink($this->err);
    }

    /** @param list<string> $command */
    public static function start(array $command): self
    {
        $out = \tempnam(\sys_get_temp_dir(), 'spindle-cmd-');
        $err = \tempnam(\sys_get_temp_dir(), 'spindle-cmd-');
        if ($out === false || $err === false) {
            throw new \RuntimeException('Cannot create temporary files');
        }

        return new self($command, $out, $err);
    }

    /** @return array{code: int, out: string, err: string, seconds: float}|null null while it runs */
    public function poll(): ?array
    {
        if ($this->process !== null) {
            $status = \proc_get_status($this->process);
            if ($status['running']) {
                return null;
            }
            $this->code = $status['signaled'] ? 128 + $status['termsig'] : $status['exitcode'];
            \proc_close($this->process);
            $this->process = null;
        }

        return [
            'code' => (int) $this->code,
            'out' => (string) @\file_get_contents($this->out),
            'err' => (string) @\file_get_contents($this->err),
            'seconds' => \microtime(true) - $this->started,
        ];
    }

    public function kill(): void
    {
        if ($this->process !== null) {
            \proc_terminate($this->process, \SIGKILL);
            \proc_close($this->process);
            $this->process = null;
            $this->code ??= 137;
        }
    }
}
