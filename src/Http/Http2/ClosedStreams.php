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
    /**
     * The remembered ids in a ring, oldest at $next once it is full: forgetting the oldest is one
     * array write (array_key_first() after unset() scans the holes at the front of the table).
     *
     * @var array<int, int>
     */
    private array $ring = [];
    private int $next = 0;
    /** The highest id forgotten: a stream at or below it may have been opened, and closed, before. */
    private int $forgottenBelow = 0;

    public function __construct(private readonly int $capacity)
    {
    }

    public function add(int $streamId, StreamClosure $how): void
    {
        if (isset($this->closed[$streamId])) {
            $this->closed[$streamId] = $how;

            return;
        }
        $oldest = $this->ring[$this->next] ?? 0;
        if ($oldest !== 0) {
            unset($this->closed[$oldest]);
            if ($oldest > $this->forgottenBelow) {
                $this->forgottenBelow = $oldest;
            }
        }
        $this->closed[$streamId] = $how;
        $this->ring[$this->next] = $streamId;
        $this->next = ($this->next + 1) % $this->capacity;
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
