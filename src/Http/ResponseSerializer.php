<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Serializes response heads (sans-I/O). Spindle owns the framing headers: Content-Length,
 * Transfer-Encoding and Connection given by the application are replaced; Date is added
 * unless the application set one.
 */
final class ResponseSerializer
{
    private int $dateSecond = 0;
    private string $dateLine = '';

    /**
     * @param array<string, string|list<string>> $headers
     * @param int|null $contentLength null: the body is sent with chunked encoding (or, for HTTP/1.0,
     *                                until the connection closes); -1: no body and no length header
     *
     * @throws \UnexpectedValueException when a header name or value could split the response
     */
    public function head(
        int $status,
        string $reason,
        array $headers,
        string $protocolVersion,
        bool $keepAlive,
        ?int $contentLength,
    ): string {
        if ($status < 100 || $status > 999) {
            throw new \UnexpectedValueException(\sprintf('Invalid response status %d', $status));
        }
        if ($reason === '') {
            $reason = Status::reason($status);
        } elseif (\strcspn($reason, "\r\n") !== \strlen($reason)) {
            throw new \UnexpectedValueException('Invalid response reason phrase');
        }
        $out = 'HTTP/' . $protocolVersion . ' ' . $status . ' ' . $reason . "\r\n";
        $hasDate = false;
        foreach ($headers as $name => $values) {
            $name = (string) $name;
            if (\strcspn($name, "\r\n:\0 \t") !== \strlen($name) || $name === '') {
                throw new \UnexpectedValueException(\sprintf('Invalid response header name "%s"', \addcslashes($name, "\0..\37")));
            }
            switch (\strtolower($name)) {
                case 'content-length':
                case 'transfer-encoding':
                case 'connection':
                case 'keep-alive':
                    continue 2;
                case 'date':
                    $hasDate = true;
            }
            if (\is_array($values)) {
                foreach ($values as $value) {
                    $out .= $this->line($name, (string) $value);
                }
            } else {
                $out .= $this->line($name, $values);
            }
        }
        if (!$hasDate) {
            $out .= $this->dateLine();
        }
        if ($contentLength === null) {
            if ($protocolVersion === '1.1') {
                $out .= "Transfer-Encoding: chunked\r\n";
            }
        } elseif ($contentLength >= 0) {
            $out .= 'Content-Length: ' . $contentLength . "\r\n";
        }
        if (!$keepAlive) {
            $out .= "Connection: close\r\n";
        } elseif ($protocolVersion === '1.0') {
            $out .= "Connection: keep-alive\r\n";
        }

        return $out . "\r\n";
    }

    private function line(string $name, string $value): string
    {
        if (\strcspn($value, "\r\n\0") !== \strlen($value)) {
            throw new \UnexpectedValueException(\sprintf('Invalid value for response header "%s"', $name));
        }

        return $name . ': ' . $value . "\r\n";
    }

    private function dateLine(): string
    {
        $now = \time();
        if ($now !== $this->dateSecond) {
            $this->dateSecond = $now;
            $this->dateLine = 'Date: ' . \gmdate('D, d M Y H:i:s', $now) . " GMT\r\n";
        }

        return $this->dateLine;
    }
}
