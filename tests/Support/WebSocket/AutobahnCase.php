<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

/**
 * One Autobahn|Testsuite case, as data: what the client sends and what it expects.
 *
 * $expected lists the events the client must receive for the strict verdict ("OK"), $nonStrict
 * the alternative the suite accepts as "NON-STRICT" (null: none). An event is
 * ['message', payload, binary], ['pong', payload], ['ping', payload] or ['timeout', label].
 *
 * The close expectation: who starts the closing handshake ($closedByMe: the client), which codes
 * the server's close frame may carry (a close frame without a code is always accepted), whether
 * the closing handshake must finish cleanly. With $autoClose the client sends its close (the first
 * of $closeCodes) once the events received match $expected. $closedByWrongEndpointIsFatal fails
 * the case when the wrong side started the close (the UTF-8 cases: the server did not notice).
 * $informational: the outcome is recorded, the case passes whatever it is.
 */
final class AutobahnCase
{
    /**
     * @param list<Step> $steps
     * @param list<array{0: string, 1: string, 2?: bool}> $expected
     * @param list<array{0: string, 1: string, 2?: bool}>|null $nonStrict
     * @param list<int> $closeCodes
     */
    public function __construct(
        public readonly string $id,
        public readonly string $description,
        public readonly array $steps,
        public readonly array $expected,
        public readonly ?array $nonStrict,
        public readonly bool $closedByMe,
        public readonly array $closeCodes,
        public readonly bool $requireClean,
        public readonly bool $autoClose,
        public readonly bool $closedByWrongEndpointIsFatal = false,
        public readonly bool $informational = false,
    ) {
    }

    /** "1.1.8" → 1 */
    public function section(): int
    {
        return (int) \explode('.', $this->id)[0];
    }
}
