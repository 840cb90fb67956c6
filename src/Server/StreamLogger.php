<?php

declare(strict_types=1);

namespace Spindle\Server;

use Psr\Log\AbstractLogger;
use Psr\Log\LogLevel;

/** Writes one line per record to a stream (stderr by default), with the worker's pid. */
final class StreamLogger extends AbstractLogger
{
    private const LEVELS = [
        LogLevel::DEBUG => 0, LogLevel::INFO => 1, LogLevel::NOTICE => 2, LogLevel::WARNING => 3,
        LogLevel::ERROR => 4, LogLevel::CRITICAL => 5, LogLevel::ALERT => 6, LogLevel::EMERGENCY => 7,
    ];

    /** @param resource $stream */
    public function __construct(
        private readonly mixed $stream,
        private readonly string $minLevel = LogLevel::INFO,
        private readonly bool $withTraces = false,
    ) {
    }

    /**
     * Untyped $message: the same class then satisfies psr/log 1, 2 and 3, whichever version the
     * served app brings.
     *
     * @param string|\Stringable $message
     */
    public function log($level, $message, array $context = []): void
    {
        $level = (string) $level;
        if ((self::LEVELS[$level] ?? 7) < (self::LEVELS[$this->minLevel] ?? 1)) {
            return;
        }
        $line = \sprintf('[%s] %s [%d] %s', \gmdate('Y-m-d\TH:i:s\Z'), \strtoupper($level), \getmypid(), $message);
        $exception = $context['exception'] ?? null;
        if ($exception instanceof \Throwable) {
            $line .= \sprintf(' (%s at %s:%d)', $exception::class, $exception->getFile(), $exception->getLine());
            if ($this->withTraces) {
                $line .= "\n" . $exception->getTraceAsString();
            }
        }
        @\fwrite($this->stream, $line . "\n");
    }
}
