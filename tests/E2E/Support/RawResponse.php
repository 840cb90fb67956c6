<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support;

/** One HTTP response as RawClient parsed it off the wire. */
final class RawResponse
{
    /** @param array<string, list<string>> $headers lower-case names */
    public function __construct(
        public readonly string $protocol,
        public readonly int $status,
        public readonly string $reason,
        public readonly array $headers,
        public readonly string $body,
        public readonly string $raw,
    ) {
    }

    public function header(string $name): ?string
    {
        $values = $this->headers[\strtolower($name)] ?? null;

        return $values === null ? null : \implode(', ', $values);
    }

    /** @return array<mixed> the body decoded as a JSON object */
    public function json(): array
    {
        $data = \json_decode($this->body, true);
        if (!\is_array($data)) {
            throw new \UnexpectedValueException('Response body is not a JSON object: ' . \substr($this->raw, 0, 2000));
        }

        return $data;
    }
}
