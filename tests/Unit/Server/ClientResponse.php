<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server;

final class ClientResponse
{
    /** @param array<string, string> $headers lower-cased names */
    public function __construct(
        public readonly int $status,
        public readonly array $headers,
        public readonly string $body,
    ) {
    }
}
