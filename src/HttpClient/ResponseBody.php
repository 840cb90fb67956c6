<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

use Spindle\HttpClient\Protocol\ResponseParser;

/**
 * The body of a response, read from its connection as the caller asks for it (each wait
 * suspends only the calling fiber). Once the body has been read whole the connection goes back
 * to the pool; a body closed or dropped before that closes its connection.
 */
final class ResponseBody
{
    private ?Connection $connection;
    private bool $done = false;
    private string $ahead = '';
    private bool $decoded = false;

    public function __construct(
        ?Connection $connection,
        private readonly ResponseParser $parser,
        private readonly ?ConnectionPool $pool,
        private readonly ?Decoder $decoder,
        private readonly ?float $idleTimeout,
        private readonly ?float $deadline,
    ) {
        $this->connection = $connection;
        $this->done = $connection === null;
        $this->ahead = $parser->takeBody();
        $this->settle();
    }

    /** A body already complete (used for bodies of HEAD, 204, 304 and for tests). */
    public static function ofString(string $bytes): self
    {
        $body = new self(null, new ResponseParser(), null, null, null, null);
        $body->done = true;
        $body->ahead = $bytes;

        return $body;
    }

    /**
     * The next piece of the body, null at its end.
     *
     * @throws HttpClientException|TimeoutException
     */
    public function read(): ?string
    {
        while (true) {
            if ($this->ahead !== '') {
                $piece = $this->ahead;
                $this->ahead = '';
                $piece = $this->decoder?->push($piece) ?? $piece;
                if ($piece !== '') {
                    return $piece;
                }
                continue;
            }
            if ($this->done) {
                if ($this->decoder !== null && !$this->decoded) {
                    $this->decoded = true;
                    $rest = $this->decoder->finish();
                    if ($rest !== '') {
                        return $rest;
                    }
                }

                return null;
            }
            $this->fill();
        }
    }

    /** The rest of the body. */
    public function contents(): string
    {
        $contents = '';
        while (($piece = $this->read()) !== null) {
            $contents .= $piece;
        }

        return $contents;
    }

    public function isComplete(): bool
    {
        return $this->done && $this->ahead === '';
    }

    /** @return list<array{string, string}> */
    public function trailers(): array
    {
        return $this->parser->trailers();
    }

    /** Stops reading: a connection in the middle of a body is closed. */
    public function close(): void
    {
        if ($this->connection !== null) {
            $this->pool?->release($this->connection, false);
            $this->connection = null;
        }
        $this->done = true;
        $this->ahead = '';
    }

    public function __destruct()
    {
        if ($this->connection !== null) {
            $this->pool?->release($this->connection, false);
            $this->connection = null;
        }
    }

    private function fill(): void
    {
        $connection = $this->connection;
        if ($connection === null) {
            $this->done = true;

            return;
        }
        $now = \hrtime(true) / 1e9;
        $idle = $this->idleTimeout === null ? null : $now + $this->idleTimeout;
        $deadline = $this->deadline === null ? $idle : ($idle === null ? $this->deadline : \min($idle, $this->deadline));
        $kind = $deadline !== null && $deadline === $this->deadline ? TimeoutKind::Total : TimeoutKind::Idle;
        try {
            $bytes = $connection->read($deadline, $kind);
            if ($bytes === '') {
                $this->parser->close();
            } else {
                $this->parser->push($bytes);
            }
        } catch (\Throwable $e) {
            $this->pool?->release($connection, false);
            $this->connection = null;
            $this->done = true;
            if ($e instanceof Protocol\ResponseParseException) {
                throw new ConnectionLost(\sprintf('Reading the response from %s failed: %s', $connection->peer, $e->getMessage()), 0, $e);
            }
            throw $e;
        }
        $this->ahead .= $this->parser->takeBody();
        $this->settle();
    }

    /** Once the parser has the whole response, gives the connection back. */
    private function settle(): void
    {
        if ($this->connection !== null && $this->parser->isComplete()) {
            $this->pool?->release($this->connection, $this->parser->isReusable());
            $this->connection = null;
            $this->done = true;
        }
    }
}
