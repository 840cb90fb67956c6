<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;
use Spindle\Http\WebSocket\WebSocketLimits;

/**
 * The Autobahn test client: plays an AutobahnCase over a CaseTransport and judges it the way the
 * suite does. The client's parser is Spindle's own in client mode (server frames must be
 * unmasked); every event it records is compared with the case's expected lists.
 *
 * Closing, as the suite's client: when the server's close frame arrives first the client answers
 * it with the same code; with AutobahnCase::$autoClose the client sends its own close once the
 * events match (waiting for them at most $eventTimeout); then it waits (at most $closeTimeout) for
 * the server to close the connection.
 */
final class AutobahnRunner
{
    /**
     * @param float $closeTimeout how long the client waits for the server to close the connection
     * @param float $eventTimeout how long it waits for the expected events before closing (a socket)
     */
    public function __construct(private readonly float $closeTimeout = 2.0, private readonly float $eventTimeout = 10.0)
    {
    }

    public function run(AutobahnCase $case, CaseTransport $transport): CaseResult
    {
        $run = new AutobahnRun($case, $transport, FrameParser::forClient(new WebSocketLimits(64 << 20, 64 << 20, 1 << 20)));
        foreach ($case->steps as $step) {
            if ($run->serverClosing()) {
                break;
            }
            if ($step->kind === 'send') {
                $transport->send($step->bytes);
                $run->clientSentClose = $run->clientSentClose || $step->sendsClose;
                $run->drain(0.0);
            } elseif ($step->kind === 'pause') {
                $run->pause($step->seconds);
                if ($run->serverClosing()) {
                    break;
                }
                if ($step->label !== null) {
                    $run->received[] = ['timeout', $step->label];
                }
            } else {
                $run->awaitMessages($step->count, $step->seconds);
            }
        }
        $run->drain(0.0);
        if ($case->autoClose) {
            $run->awaitEvents($case->expected, $this->eventTimeout);
        }
        if ($case->autoClose && !$run->clientSentClose && !$run->serverClosing() && $run->matches($case->expected)) {
            $transport->send(FrameEncoder::close($case->closeCodes[0], '', \random_bytes(4)));
            $run->clientSentClose = true;
        }
        $deadline = \microtime(true) + $this->closeTimeout;
        while (!$transport->isClosed() && \microtime(true) < $deadline) {
            if (!$run->drain(\max(0.0, $deadline - \microtime(true)))) {
                break;
            }
        }
        $tcpClosedByServer = $transport->isClosed();
        if (!$tcpClosedByServer) {
            $transport->close();
        }

        return $run->judge($tcpClosedByServer);
    }

    /**
     * Runs every case of $section (sizes divided by $scale), each over a transport of its own,
     * and gives how many cases ran and the summaries of those without the suite's strict verdict
     * (OK for the events and the close; INFORMATIONAL for the informational cases).
     *
     * @param \Closure(): CaseTransport $transport
     *
     * @return array{int, list<string>}
     */
    public function strictFailures(int $section, int $scale, \Closure $transport): array
    {
        $failures = [];
        $cases = 0;
        foreach (AutobahnCases::section($section, $scale) as $case) {
            ++$cases;
            $connection = $transport();
            try {
                $result = $this->run($case, $connection);
            } finally {
                $connection->close();
            }
            $strict = $case->informational
                ? $result->behavior === 'INFORMATIONAL'
                : $result->behavior === 'OK' && $result->behaviorClose === 'OK';
            if (!$strict) {
                $failures[] = $result->summary();
            }
        }

        return [$cases, $failures];
    }
}
