<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Spindle's lean request: the parsed head plus its body. Header names are lower-case;
 * every header maps to the list of its values in the order received.
 */
final class Request
{
    /**
     * @param array<string, list<string>> $headers
     * @param array<string, mixed> $parsedBody form fields (urlencoded or multipart), nested as PHP does
     * @param array<string, mixed> $uploadedFiles UploadedFile leaves, nested like the field names
     */
    public function __construct(
        public readonly string $method,
        public readonly string $target,
        public readonly string $path,
        public readonly string $query,
        public readonly string $protocolVersion,
        public readonly array $headers,
        public readonly string $body = '',
        public readonly array $parsedBody = [],
        public readonly array $uploadedFiles = [],
        public readonly string $remoteAddress = '',
        public readonly int $remotePort = 0,
        public readonly string $localAddress = '',
        public readonly int $localPort = 0,
    ) {
    }

    public function header(string $name): ?string
    {
        $values = $this->headers[\strtolower($name)] ?? null;

        return $values === null ? null : \implode(', ', $values);
    }
}
