<?php

declare(strict_types=1);

namespace Spindle\Http\Parser;

/** The parsed request line and header section of one request. */
final class RequestHead
{
    /**
     * @param array<string, list<string>> $headers lower-case names
     * @param int|null $contentLength null when the body is chunked
     */
    public function __construct(
        public readonly string $method,
        public readonly string $target,
        public readonly string $path,
        public readonly string $query,
        public readonly string $protocolVersion,
        public readonly array $headers,
        public readonly bool $keepAlive,
        public readonly bool $expectsContinue,
        public readonly ?int $contentLength,
        public readonly bool $chunked,
    ) {
    }

    public function hasBody(): bool
    {
        return $this->chunked || $this->contentLength > 0;
    }
}
