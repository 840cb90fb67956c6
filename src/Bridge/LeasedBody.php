<?php

declare(strict_types=1);

namespace Spindle\Bridge;

/**
 * A streamed response body that runs inside the request's app instance: the instance is made
 * current for every piece (InstanceLease::resumed()), and the lease ends when the body is done,
 * fails, or is dropped without being read (a HEAD request, a client that went away).
 *
 * @implements \IteratorAggregate<int, string>
 */
final class LeasedBody implements \IteratorAggregate
{
    /** @param iterable<string> $body */
    public function __construct(
        private readonly iterable $body,
        private readonly InstanceLease $lease,
    ) {
    }

    public function __destruct()
    {
        $this->lease->end();
    }

    public function getIterator(): \Generator
    {
        try {
            $this->lease->resumed();
            foreach ($this->body as $piece) {
                yield $piece;
                $this->lease->resumed();
            }
        } finally {
            $this->lease->end();
        }
    }
}
