<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

/**
 * How an Autobahn case went, in the suite's terms: $behavior is OK, NON-STRICT, FAILED or
 * INFORMATIONAL (the events received against the expected ones), $behaviorClose OK, FAILED,
 * UNCLEAN, WRONG CODE or INFORMATIONAL (the closing handshake), with what was seen.
 */
final class CaseResult
{
    /**
     * @param list<array{0: string, 1: string, 2?: bool}> $received
     */
    public function __construct(
        public readonly AutobahnCase $case,
        public readonly string $behavior,
        public readonly string $behaviorClose,
        public readonly array $received,
        public readonly bool $closedByMe,
        public readonly bool $wasClean,
        public readonly ?int $remoteCloseCode,
        public readonly string $remoteCloseReason,
        public readonly string $note = '',
    ) {
    }

    public function passed(): bool
    {
        return \in_array($this->behavior, ['OK', 'NON-STRICT', 'INFORMATIONAL'], true)
            && \in_array($this->behaviorClose, ['OK', 'INFORMATIONAL'], true);
    }

    public function summary(): string
    {
        $received = \array_map(
            static fn (array $e): string => $e[0] . '(' . (\strlen($e[1]) > 40 ? \strlen($e[1]) . ' bytes' : \bin2hex($e[1])) . ')',
            $this->received,
        );

        return \sprintf(
            '%s: %s / close %s (closed by %s, %s, code %s%s)%s; received [%s]',
            $this->case->id,
            $this->behavior,
            $this->behaviorClose,
            $this->closedByMe ? 'client' : 'server',
            $this->wasClean ? 'clean' : 'unclean',
            $this->remoteCloseCode ?? 'none',
            $this->remoteCloseReason === '' ? '' : ' "' . $this->remoteCloseReason . '"',
            $this->note === '' ? '' : ' ' . $this->note,
            \implode(', ', $received),
        );
    }
}
