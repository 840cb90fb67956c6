<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

use Psr\Log\LogLevel;
use Spindle\Supervisor\Action\LogLine;

/**
 * @internal The lines the master logs when a worker's process ends or is about to: what happened
 * and what the master does about it. MasterState decides; this words it.
 */
final class WorkerEndLog
{
    private function __construct()
    {
    }

    /** $worker, whose process a request ended, exited ($status) and was replaced when it said so. */
    public static function afterRequestEnded(int $pid, WorkerRecord $worker, ExitStatus $status): LogLine
    {
        $drained = !$worker->killed && $status->code === ExitStatus::REPLACE;

        return new LogLine($drained ? LogLevel::INFO : LogLevel::WARNING, \sprintf(
            'Worker %d %s after a request ended it (%s)',
            $pid,
            match (true) {
                $drained => 'finished its other requests and exited',
                $worker->killed => 'was killed: its other requests did not finish within the drain timeout',
                default => \sprintf('%s before its other requests finished', $status->describe()),
            },
            (string) $worker->exitReason,
        ));
    }

    /**
     * $worker died ($status) while it served or booted; $outgoing: a reload replaces its
     * generation; $delay: its restart's back-off.
     */
    public static function died(int $pid, WorkerRecord $worker, ExitStatus $status, bool $outgoing, float $delay): LogLine
    {
        return new LogLine(LogLevel::ERROR, \sprintf(
            'Worker %d %s%s; %s',
            $pid,
            $worker->killed ? 'did not respond and ' : '',
            $status->describe(),
            match (true) {
                $worker->state === WorkerState::Retiring => 'its replacement is already starting',
                $outgoing => 'the reload in progress replaces it',
                $delay > 0 => \sprintf('restarting it in %.1f s', $delay),
                default => 'restarting it',
            },
        ));
    }

    /** A request ended $worker's process ($reason: exit or fatal-error) while it was in $state. */
    public static function requestEndedProcess(WorkerRecord $worker, string $reason, WorkerState $state, bool $outgoing): LogLine
    {
        return new LogLine(LogLevel::WARNING, \sprintf(
            'Worker %d: a request ended its process (%s); it finishes its %d other request%s while %s',
            (int) $worker->pid,
            $reason === 'exit' ? 'exit()' : 'fatal error',
            $worker->inflight,
            $worker->inflight === 1 ? '' : 's',
            match (true) {
                $state === WorkerState::Retiring => 'its replacement, already starting, takes over',
                $outgoing => 'the reload in progress replaces it',
                default => 'its replacement starts',
            },
        ));
    }
}
