<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/**
 * How the last streams of a connection closed, for the frames that may still arrive on them
 * (RFC 9113 §5.1): a bounded memory, the oldest forgotten first.
 *
 * @internal
 */
final class ClosedStreams
{
    /** @var array<int, StreamClosure> */
    private array $closed = [];
    /** The highest id forgotten: a stream at or below it may have been opened, and closed, before. */
    private int $forgottenBelow = 0;

    public function __construct(private readonly int $capacity)
    {
    }

    public function add(int $streamId, StreamClosure $how): void
    {
        $this->closed[$streamId] = $how;
        if (\count($this->closed) > $this->capacity) {
            $oldest = array_key_first($this->closed);
            unset($this->closed[$oldest]);
            $this->forgottenBelow = max($this->forgottenBelow, $oldest);
        }
    }

    /** How the stream closed; null when it never was open, or was forgotten (see mayBeForgotten()). */
    public function how(int $streamId): ?StreamClosure
    {
        return $this->closed[$streamId] ?? null;
    }

    public function mayBeForgotten(int $streamId): bool
    {
        return $streamId <= $this->forgottenBelow;
    }
}
