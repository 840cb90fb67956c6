<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Spindle\Server\ExitDrain;

/** How a worker process ended: an exit code, or the signal that killed it. */
final class ExitStatus
{
    /** A worker that served, then drained after a request ended its process (Server\ExitDrain). */
    public const REPLACE = ExitDrain::EXIT_CODE;

    public function __construct(
        public readonly ?int $code,
        public readonly ?int $signal = null,
    ) {
    }

    public static function fromWaitStatus(int $status): self
    {
        return \pcntl_wifsignaled($status)
            ? new self(null, (int) \pcntl_wtermsig($status))
            : new self((int) \pcntl_wexitstatus($status));
    }

    public function describe(): string
    {
        return $this->signal !== null ? 'was killed by signal ' . $this->signal : 'exited with status ' . $this->code;
    }
}
