<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

use Spindle\HttpClient\Protocol\ResponseHead;

/** A response whose head has arrived; its body is read through $body. */
final class Response
{
    /**
     * @param list<array{string, string}> $fields header fields in order
     * @param list<ResponseHead> $history the redirect responses followed to get here, in order
     */
    public function __construct(
        public readonly int $status,
        public readonly string $reason,
        public readonly string $protocolVersion,
        public readonly array $fields,
        public readonly ResponseBody $body,
        public readonly Url $url,
        public readonly array $history = [],
        public readonly ?string $primaryIp = null,
        public readonly float $startedAt = 0.0,
    ) {
    }

    /** @return array<string, list<string>> */
    public function headers(): array
    {
        return (new ResponseHead($this->protocolVersion, $this->status, $this->reason, $this->fields))->headers();
    }

    public function header(string $name): ?string
    {
        foreach ($this->fields as [$field, $value]) {
            if (\strcasecmp($field, $name) === 0) {
                return $value;
            }
        }

        return null;
    }

    public function head(): ResponseHead
    {
        return new ResponseHead($this->protocolVersion, $this->status, $this->reason, $this->fields);
    }
}
