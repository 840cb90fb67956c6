<?php

declare(strict_types=1);

namespace Spindle\Http\Parser;

use Spindle\Http\HttpLimits;

/**
 * The request heads a worker parsed lately, by their exact bytes: a head that arrives again byte
 * for byte (a client repeating a request, a load balancer's health check, an API client whose
 * headers do not change) reuses the RequestHead parsed the first time instead of being parsed
 * again. RequestHead is immutable and holds nothing of the connection, so one object can stand
 * for every request with those bytes.
 *
 * A hit saves the head parse, 0.6–1.0 µs of the ~9 µs a hello request costs in
 * benchmarks/http-path.php; a miss costs one lookup. Only heads up to MAX_HEAD bytes are kept,
 * at most $capacity of them (the oldest goes first), so the cache holds at most
 * capacity × MAX_HEAD bytes whatever the clients send. Heads that fail to parse are never kept.
 */
final class HeadCache
{
    /** The longest head (request line and fields, without the final empty line) that is kept. */
    public const MAX_HEAD = 2048;

    /** @var array<string, RequestHead> */
    private array $heads = [];

    public function __construct(
        /** The limits the kept heads were parsed under: a parser with other limits must not share them. */
        public readonly HttpLimits $limits,
        private readonly int $capacity = 128,
    ) {
    }

    /** The head parsed from exactly $raw before, if it is still kept. */
    public function get(string $raw): ?RequestHead
    {
        // (A longer one is not kept, and hashing it would cost more than it could save.)
        return \strlen($raw) <= self::MAX_HEAD ? $this->heads[$raw] ?? null : null;
    }

    /** Keeps $head as the parse of $raw (when $raw is short enough); returns $head. */
    public function put(string $raw, RequestHead $head): RequestHead
    {
        if (\strlen($raw) <= self::MAX_HEAD) {
            if (\count($this->heads) >= $this->capacity) {
                unset($this->heads[\array_key_first($this->heads)]);
            }
            $this->heads[$raw] = $head;
        }

        return $head;
    }

    /** How many heads are kept. */
    public function count(): int
    {
        return \count($this->heads);
    }
}
