<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

/**
 * @internal A streamed response body that gives its kernel back once it has been sent: after
 * the last piece, when sending fails, or when the body is dropped unsent (a HEAD request, a
 * client that left).
 *
 * @implements \IteratorAggregate<int, string>
 */
final class ReleasingBody implements \IteratorAggregate
{
    private bool $done = false;

    /**
     * @param iterable<string> $body
     * @param \Closure(): void $release
     */
    public function __construct(
        private readonly iterable $body,
        private readonly \Closure $release,
    ) {
    }

    public function getIterator(): \Generator
    {
        try {
            foreach ($this->body as $piece) {
                yield $piece;
            }
        } finally {
            $this->finish();
        }
    }

    public function __destruct()
    {
        $this->finish();
    }

    private function finish(): void
    {
        if (!$this->done) {
            $this->done = true;
            ($this->release)();
        }
    }
}
