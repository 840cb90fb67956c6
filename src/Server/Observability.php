<?php

declare(strict_types=1);

namespace Spindle\Server;

use Revolt\EventLoop;
use Spindle\Http\WebSocket\WebSocketConnections;
use Spindle\Http\Request;
use Spindle\Metrics\Histogram;
use Spindle\Metrics\Registry;
use Spindle\Server\AccessLog\AccessLogWriter;
use Spindle\Server\AccessLog\LineFormatter;
use Spindle\Server\Channel\MetricsReport;

/**
 * A worker's part of `--access-log` and `--metrics`: it makes the Instrumentation that the
 * worker's middleware (RequestPath) puts in front of the app, flushes and reopens the
 * access log (SIGUSR1), measures the event-loop lag into a histogram and sends the worker's
 * metrics to the master with each report. Nothing of it runs for what is not turned on.
 */
final class Observability
{
    private ?AccessLogWriter $log = null;
    private readonly ?Registry $metrics;
    private readonly ?Histogram $lag;
    private ?string $signalId = null;
    private ?Instrumentation $instrumentation = null;

    /** @param Registry $registry the worker's (WorkerServices::metrics()), read with --metrics */
    public function __construct(private readonly ServerOptions $options, Registry $registry, WebSocketConnections $webSockets = new WebSocketConnections())
    {
        $this->metrics = $options->metrics !== null ? $registry : null;
        $this->lag = $this->metrics?->histogram(
            'spindle_event_loop_lag_seconds',
            'How late the worker\'s 100 ms loop timer fired: time a request held the loop without yielding',
            [],
            [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0],
        );
        if ($this->metrics !== null) {
            WebSocketMetrics::export($this->metrics, $webSockets);
        }
    }

    /** The access log and request metrics as middleware (opens the access log), or null with neither on. */
    public function instrumentation(): ?Instrumentation
    {
        $options = $this->options;
        if ($options->accessLog !== null) {
            $this->log ??= new AccessLogWriter($options->accessLog);
        }

        return $this->instrumentation ??= Instrumentation::of(
            $this->log,
            $this->log !== null ? new LineFormatter($options->accessLogFormat) : null,
            $this->metrics,
            $options->trustedProxies,
        );
    }

    /** The access log line and metrics of a request that ended the process (see ExitDrain). */
    public function recordEnded(Request $request, int $status, int $bytes, float $start): void
    {
        $this->instrumentation?->recordEnded($request, $status, $bytes, $start);
    }

    /** The worker serves: start flushing the access log, reopen it on SIGUSR1. */
    public function start(): void
    {
        if ($this->log === null) {
            return;
        }
        $this->log->start();
        $log = $this->log;
        $this->signalId = EventLoop::unreference(EventLoop::onSignal(\SIGUSR1, static fn () => $log->reopen()));
    }

    public function observeLag(float $seconds): void
    {
        $this->lag?->observe(\max(0.0, $seconds));
    }

    /** Sends the worker's metrics with its report (a no-op without --metrics). */
    public function report(ChannelToMaster $channel): void
    {
        if ($this->metrics === null) {
            return;
        }
        $channel->send(new MetricsReport($this->metrics->collect()));
    }

    /** The worker is done: the last access log lines and metrics go out. */
    public function close(ChannelToMaster $channel): void
    {
        if ($this->signalId !== null) {
            EventLoop::cancel($this->signalId);
            $this->signalId = null;
            // Cancelling put back the default action, which would end the process.
            \pcntl_signal(\SIGUSR1, \SIG_IGN);
        }
        $this->log?->close();
        $this->report($channel);
    }
}
