<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/**
 * An outgoing request. The body is a string, a readable stream resource or an iterable of
 * strings; a body whose length is not known ($bodyLength null and no Content-Length header) is
 * sent chunked.
 */
final class Request
{
    /**
     * @param list<array{string, string}> $headers name and value, in order
     * @param string|resource|iterable<string>|null $body
     */
    public function __construct(
        public readonly string $method,
        public readonly Url $url,
        public readonly array $headers = [],
        public readonly mixed $body = null,
        public readonly string $protocolVersion = '1.1',
    ) {
    }

    /** @param array<string, string|list<string>> $headers */
    public static function create(string $method, string $url, array $headers = [], mixed $body = null): self
    {
        $list = [];
        foreach ($headers as $name => $values) {
            foreach ((array) $values as $value) {
                $list[] = [(string) $name, (string) $value];
            }
        }

        return new self(\strtoupper($method), Url::parse($url), $list, $body);
    }

    public function header(string $name): ?string
    {
        foreach ($this->headers as [$field, $value]) {
            if (\strcasecmp($field, $name) === 0) {
                return $value;
            }
        }

        return null;
    }

    /** @param list<string> $names */
    public function withoutHeaders(array $names): self
    {
        $headers = \array_values(\array_filter(
            $this->headers,
            static fn (array $field): bool => !\in_array(\strtolower($field[0]), $names, true),
        ));

        return new self($this->method, $this->url, $headers, $this->body, $this->protocolVersion);
    }

    /** @param list<array{string, string}> $headers */
    public function with(string $method, Url $url, array $headers, mixed $body): self
    {
        return new self($method, $url, $headers, $body, $this->protocolVersion);
    }
}
