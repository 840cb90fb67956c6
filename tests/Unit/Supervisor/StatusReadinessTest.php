<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\ControlCommand;

/** The readiness line of `spindle status`, from the figures `status --json` carries. */
final class StatusReadinessTest extends TestCase
{
    public function testTheStatusSaysWhetherTheServerIsReady(): void
    {
        $base = ['phase' => 'running', 'generation' => 1, 'uptime' => 3.0, 'pid' => 7, 'address' => 'http://127.0.0.1:8080', 'workers' => []];
        self::assertSame(
            'Ready: yes, 2 workers accepting; metrics on http://127.0.0.1:9090/metrics',
            ControlCommand::statusLines($base + ['ready' => true, 'ready_workers' => 2, 'metrics' => 'http://127.0.0.1:9090/metrics'])[1],
        );
        self::assertSame(
            'Ready: no, 1 worker accepting',
            ControlCommand::statusLines(['phase' => 'stopping'] + $base + ['ready' => false, 'ready_workers' => 1, 'metrics' => null])[1],
        );
    }
}
