<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

use Psr\Http\Message\StreamInterface;
use Spindle\HttpClient\ResponseBody;

/**
 * A response body read from the network as it is asked for (Guzzle's `stream` option, PSR-18
 * streaming): read-only, not seekable; each read that waits suspends only the calling fiber.
 * Parameters are untyped so that it implements psr/http-message 1.x and 2.x alike.
 */
final class BodyStream implements StreamInterface
{
    private string $buffer = '';
    private bool $eof = false;
    private int $position = 0;

    public function __construct(private ?ResponseBody $body)
    {
    }

    public function __toString(): string
    {
        try {
            return $this->getContents();
        } catch (\Throwable) {
            return '';
        }
    }

    public function close(): void
    {
        $this->body?->close();
        $this->body = null;
        $this->eof = true;
        $this->buffer = '';
    }

    public function detach()
    {
        $this->close();

        return null;
    }

    public function getSize(): ?int
    {
        return null;
    }

    public function tell(): int
    {
        return $this->position;
    }

    public function eof(): bool
    {
        return $this->eof && $this->buffer === '';
    }

    public function isSeekable(): bool
    {
        return false;
    }

    /**
     * @param int $offset
     * @param int $whence
     */
    public function seek($offset, $whence = \SEEK_SET): void
    {
        throw new \RuntimeException('The response body stream is not seekable');
    }

    public function rewind(): void
    {
        throw new \RuntimeException('The response body stream is not seekable');
    }

    public function isWritable(): bool
    {
        return false;
    }

    /** @param string $string */
    public function write($string): int
    {
        throw new \RuntimeException('The response body stream is not writable');
    }

    public function isReadable(): bool
    {
        return true;
    }

    /** @param int $length */
    public function read($length): string
    {
        if ($this->buffer === '' && !$this->eof) {
            $piece = $this->body?->read();
            if ($piece === null) {
                $this->eof = true;
                $this->body = null;
            } else {
                $this->buffer = $piece;
            }
        }
        $out = (string) \substr($this->buffer, 0, \max(0, $length));
        $this->buffer = (string) \substr($this->buffer, \strlen($out));
        $this->position += \strlen($out);

        return $out;
    }

    public function getContents(): string
    {
        $contents = '';
        while (!$this->eof()) {
            $contents .= $this->read(1048576);
        }

        return $contents;
    }

    /** @param string|null $key */
    public function getMetadata($key = null)
    {
        $meta = ['seekable' => false, 'eof' => $this->eof(), 'mode' => 'r'];

        return $key === null ? $meta : ($meta[$key] ?? null);
    }
}
