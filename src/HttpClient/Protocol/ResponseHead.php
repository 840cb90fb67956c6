<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Protocol;

/** A parsed response head: status line and header fields in the order received. */
final class ResponseHead
{
    /** @param list<array{string, string}> $fields name (as sent) and value */
    public function __construct(
        public readonly string $protocolVersion,
        public readonly int $status,
        public readonly string $reason,
        public readonly array $fields,
    ) {
    }

    /** @return list<string> every value of the field $name (case-insensitive) */
    public function values(string $name): array
    {
        $values = [];
        foreach ($this->fields as [$field, $value]) {
            if (\strcasecmp($field, $name) === 0) {
                $values[] = $value;
            }
        }

        return $values;
    }

    public function first(string $name): ?string
    {
        return $this->values($name)[0] ?? null;
    }

    /** @return array<string, list<string>> values by field name (the first spelling received) */
    public function headers(): array
    {
        $headers = [];
        $names = [];
        foreach ($this->fields as [$field, $value]) {
            $lower = \strtolower($field);
            $name = $names[$lower] ??= $field;
            $headers[$name][] = $value;
        }

        return $headers;
    }

    /** The status line as sent, e.g. "HTTP/1.1 200 OK". */
    public function statusLine(): string
    {
        return \rtrim(\sprintf('HTTP/%s %d %s', $this->protocolVersion, $this->status, $this->reason));
    }
}
