<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

use Spindle\Http\WebSocket\EventType;
use Spindle\Http\WebSocket\FrameEncoder;
use Spindle\Http\WebSocket\FrameParser;

/** The client's state during one AutobahnRunner::run(). @internal */
final class AutobahnRun
{
    /** @var list<array{0: string, 1: string, 2?: bool}> */
    public array $received = [];
    public bool $clientSentClose = false;
    public int $messages = 0;
    /** Whether the client had sent its close before the server's close frame arrived. */
    public ?bool $closedByMe = null;
    public ?int $remoteCloseCode = null;
    public string $remoteCloseReason = '';
    public bool $serverCloseReceived = false;
    public string $note = '';

    public function __construct(
        private readonly AutobahnCase $case,
        private readonly CaseTransport $transport,
        private readonly FrameParser $parser,
    ) {
    }

    /** @phpstan-impure */
    public function serverClosing(): bool
    {
        return $this->serverCloseReceived || $this->transport->isClosed();
    }

    /** Reads what the server sent within $timeout (then whatever follows at once); false when nothing came. */
    public function drain(float $timeout): bool
    {
        $bytes = $this->transport->receive($timeout);
        if ($bytes === '') {
            return false;
        }
        do {
            $this->consume($bytes);
            $bytes = $this->transport->receive(0.0);
        } while ($bytes !== '');

        return true;
    }

    /** Waits until $total messages (since the start) have come back, the server closes or $seconds pass. */
    public function awaitMessages(int $total, float $seconds): void
    {
        $deadline = \microtime(true) + $seconds;
        while ($this->messages < $total && !$this->serverClosing() && \microtime(true) < $deadline) {
            $this->drain(\max(0.0, $deadline - \microtime(true)));
        }
    }

    /** Reads whatever the server sends for $seconds (a transport without I/O: what is pending), or until it closes. */
    public function pause(float $seconds): void
    {
        $deadline = \microtime(true) + $seconds;
        while (!$this->serverClosing() && $this->drain(\max(0.0, $deadline - \microtime(true))) && \microtime(true) < $deadline) {
        }
    }

    /**
     * Reads until the events received are $expected, the server closes, nothing more comes in
     * $seconds (a transport without I/O: nothing more is pending), or they can no longer match.
     *
     * @param list<array{0: string, 1: string, 2?: bool}> $expected
     */
    public function awaitEvents(array $expected, float $seconds): void
    {
        $deadline = \microtime(true) + $seconds;
        while (\count($this->received) < \count($expected) && !$this->serverClosing()) {
            if (!$this->drain(\max(0.0, $deadline - \microtime(true)))) {
                return;
            }
        }
    }

    /** @param list<array{0: string, 1: string, 2?: bool}> $expected */
    public function matches(array $expected): bool
    {
        return $this->received === $expected;
    }

    public function judge(bool $tcpClosedByServer): CaseResult
    {
        $case = $this->case;
        $behavior = 'FAILED';
        if ($this->received === $case->expected) {
            $behavior = 'OK';
        } elseif ($case->nonStrict !== null && $this->received === $case->nonStrict) {
            $behavior = 'NON-STRICT';
        }
        $closedByMe = $this->closedByMe ?? $this->clientSentClose;
        $wasClean = $this->serverCloseReceived && $this->clientSentClose && $tcpClosedByServer;
        if ($closedByMe !== $case->closedByMe) {
            $behaviorClose = 'FAILED';
            $this->note .= ' the connection was closed by the wrong side';
        } elseif ($case->requireClean && !$wasClean) {
            $behaviorClose = 'UNCLEAN';
        } elseif ($this->remoteCloseCode !== null && !\in_array($this->remoteCloseCode, $case->closeCodes, true)) {
            $behaviorClose = 'WRONG CODE';
        } elseif (!$tcpClosedByServer) {
            $behaviorClose = 'FAILED';
            $this->note .= ' the server did not close the connection';
        } else {
            $behaviorClose = 'OK';
        }
        if ($case->closedByWrongEndpointIsFatal && $closedByMe !== $case->closedByMe) {
            $behavior = 'FAILED';
        }
        if ($case->informational) {
            $this->note .= \sprintf(' (informational: events %s, close %s)', $behavior, $behaviorClose);
            $behavior = 'INFORMATIONAL';
            $behaviorClose = 'INFORMATIONAL';
        }

        return new CaseResult($case, $behavior, $behaviorClose, $this->received, $closedByMe, $wasClean, $this->remoteCloseCode, $this->remoteCloseReason, \trim($this->note));
    }

    private function consume(string $bytes): void
    {
        if ($this->serverCloseReceived) {
            $this->note .= \sprintf(' %d bytes after the close frame', \strlen($bytes));

            return;
        }
        foreach ($this->parser->push($bytes) as $event) {
            switch ($event->type) {
                case EventType::Text:
                case EventType::Binary:
                    $this->received[] = ['message', $event->payload, $event->type === EventType::Binary];
                    ++$this->messages;
                    break;
                case EventType::Ping:
                    $this->received[] = ['ping', $event->payload];
                    break;
                case EventType::Pong:
                    $this->received[] = ['pong', $event->payload];
                    break;
                case EventType::Close:
                    $this->serverCloseReceived = true;
                    $this->closedByMe = $this->clientSentClose;
                    $this->remoteCloseCode = $event->closeCode === 1005 ? null : $event->closeCode;
                    $this->remoteCloseReason = $event->payload;
                    if (!$this->clientSentClose) {
                        $this->transport->send(FrameEncoder::close($event->closeCode, '', \random_bytes(4)));
                        $this->clientSentClose = true;
                    }
                    break;
            }
        }
        $error = $this->parser->error();
        if ($error !== null) {
            $this->note .= ' the server sent an invalid frame: ' . $error->getMessage();
            $this->serverCloseReceived = true;
            $this->closedByMe ??= false;
        }
    }
}
