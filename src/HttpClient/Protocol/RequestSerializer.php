<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Protocol;

use Spindle\HttpClient\HttpClientError;

/** Sans-I/O: the bytes of a request head and of chunked body pieces. */
final class RequestSerializer
{
    /**
     * @param list<array{string, string}> $headers
     *
     * @throws HttpClientError when a name or value would break the head (CR, LF, NUL)
     */
    public function head(string $method, string $target, array $headers, string $version = '1.1'): string
    {
        if (\preg_match('/^[!#$%&\'*+.^_`|~0-9A-Za-z-]+$/D', $method) !== 1) {
            throw new HttpClientError(\sprintf('Invalid request method: %s', \json_encode($method)));
        }
        if (\preg_match('/[\x00-\x20\x7f]/', $target) === 1) {
            throw new HttpClientError(\sprintf('Invalid request target: %s', \json_encode($target)));
        }
        $head = $method . ' ' . $target . ' HTTP/' . $version . "\r\n";
        foreach ($headers as [$name, $value]) {
            if (\preg_match('/^[!#$%&\'*+.^_`|~0-9A-Za-z-]+$/D', $name) !== 1 || \preg_match('/[\x00\r\n]/', $value) === 1) {
                throw new HttpClientError(\sprintf('Invalid header field: %s', \json_encode($name . ': ' . $value)));
            }
            $head .= $name . ': ' . $value . "\r\n";
        }

        return $head . "\r\n";
    }

    public function chunk(string $data): string
    {
        return $data === '' ? '' : \dechex(\strlen($data)) . "\r\n" . $data . "\r\n";
    }

    public function lastChunk(): string
    {
        return "0\r\n\r\n";
    }
}
