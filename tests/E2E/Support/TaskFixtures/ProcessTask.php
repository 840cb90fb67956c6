<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support\TaskFixtures;

/**
 * A task for tests/E2E/TaskWorkersTest.php (tests/fixtures/apps/tasks.php): answers the pid of
 * the process it runs in (at once, or after a second: `slow`, which first creates $startedFile
 * when given one), throws, or kills that process, as told.
 */
final class ProcessTask
{
    public function __construct(private readonly string $what, private readonly ?string $startedFile = null)
    {
    }

    public function __invoke(): int
    {
        return match ($this->what) {
            'pid' => (int) \getmypid(),
            'slow' => $this->afterASecond((int) \getmypid()),
            'throw' => throw new \DomainException('the task failed on purpose'),
            'crash' => \posix_kill((int) \getmypid(), \SIGKILL) ? 0 : -1,
            default => -1,
        };
    }

    private function afterASecond(int $value): int
    {
        if ($this->startedFile !== null) {
            \touch($this->startedFile);
        }
        \usleep(1_000_000);

        return $value;
    }
}
