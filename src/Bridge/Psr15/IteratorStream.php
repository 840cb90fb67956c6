<?php

declare(strict_types=1);

namespace Spindle\Bridge\Psr15;

use Psr\Http\Message\StreamInterface;

/**
 * A PSR-7 body produced piece by piece by an iterable (a generator, say). Spindle sends each
 * piece to the client as soon as it is produced, with chunked encoding: Server-Sent Events and
 * other long-lived streams work this way.
 */
final class IteratorStream implements StreamInterface
{
    private ?\Iterator $iterator;
    private bool $started = false;

    /** @param iterable<string> $pieces */
    public function __construct(iterable $pieces)
    {
        $this->iterator = $pieces instanceof \Iterator ? $pieces : (static fn () => yield from $pieces)();
    }

    /** @return \Iterator<mixed, string> the pieces, to be consumed once */
    public function pieces(): \Iterator
    {
        if ($this->iterator === null) {
            throw new \RuntimeException('The stream is detached');
        }

        return $this->iterator;
    }

    public function __toString(): string
    {
        $out = '';
        while (!$this->eof()) {
            $out .= $this->read(PHP_INT_MAX);
        }

        return $out;
    }

    public function close(): void
    {
        $this->iterator = null;
    }

    public function detach()
    {
        $this->iterator = null;

        return null;
    }

    public function getSize(): ?int
    {
        return null;
    }

    public function tell(): int
    {
        throw new \RuntimeException('An iterator stream has no position');
    }

    public function eof(): bool
    {
        if ($this->iterator === null) {
            return true;
        }
        if (!$this->started) {
            $this->started = true;
            $this->iterator->rewind();
        }

        return !$this->iterator->valid();
    }

    public function isSeekable(): bool
    {
        return false;
    }

    public function seek(int $offset, int $whence = SEEK_SET): void
    {
        throw new \RuntimeException('An iterator stream is not seekable');
    }

    public function rewind(): void
    {
        throw new \RuntimeException('An iterator stream is not seekable');
    }

    public function isWritable(): bool
    {
        return false;
    }

    public function write(string $string): int
    {
        throw new \RuntimeException('An iterator stream is not writable');
    }

    public function isReadable(): bool
    {
        return true;
    }

    /** Returns the next piece whole; $length is not honoured, pieces are never split. */
    public function read(int $length): string
    {
        if ($this->eof()) {
            return '';
        }
        \assert($this->iterator !== null);
        $piece = (string) $this->iterator->current();
        $this->iterator->next();

        return $piece;
    }

    public function getContents(): string
    {
        return (string) $this;
    }

    public function getMetadata(?string $key = null)
    {
        return $key === null ? [] : null;
    }
}
