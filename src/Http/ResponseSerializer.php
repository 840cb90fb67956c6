<?php

declare(strict_types=1);

namespace Spindle\Http;

/**
 * Serializes response heads (sans-I/O). Spindle owns the framing headers: Content-Length,
 * Transfer-Encoding and Connection given by the application are replaced (a "Connection: close"
 * from the application closes the connection after the response); Date is added unless the
 * application set one.
 */
final class ResponseSerializer
{
    /** How many header names are remembered as checked before the memory starts over. */
    private const NAME_MEMORY = 256;
    /** Control characters but HTAB (RFC 9110 §5.5 allows none other in a field value or a reason phrase). */
    private const CONTROLS = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f";
    /** As many bytes other than these, for strtr(): a value holding a control character changes. */
    private const MARKS = '################################';
    private const PLAIN = 0;
    private const FRAMING = 1;
    private const DATE = 2;

    private int $dateSecond = 0;
    private string $dateLine = '';
    /** @var array<int, string> " 200 OK\r\n" and the like, by status, for the default reason phrases */
    private array $statusLines = [];
    /** @var array<array-key, int> header names already checked: what the serializer does with each */
    private array $names = [];
    /** @var array<string, string|list<string>>|null the headers lastFields was made from (see fields()) */
    private ?array $lastHeaders = null;
    private string $lastFields = '';
    private bool $lastHasDate = false;
    private bool $lastAsksToClose = false;

    /**
     * @param array<string, string|list<string>> $headers
     * @param int|null $contentLength null: the body is sent with chunked encoding (or, for HTTP/1.0,
     *                                until the connection closes); -1: no body and no length header
     * @param bool $closing set to true when the application's headers ask to close the connection
     *                      (the head then says "Connection: close")
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
        bool &$closing = false,
    ): string {
        if ($reason === '') {
            $out = 'HTTP/' . $protocolVersion . ($this->statusLines[$status] ?? $this->statusLine($status));
        } else {
            if ($status < 100 || $status > 999) {
                throw new \UnexpectedValueException(\sprintf('Invalid response status %d', $status));
            }
            if (\strcspn($reason, self::CONTROLS) !== \strlen($reason)) {
                throw new \UnexpectedValueException('Invalid response reason phrase');
            }
            $out = 'HTTP/' . $protocolVersion . ' ' . $status . ' ' . $reason . "\r\n";
        }
        if ($headers !== $this->lastHeaders) {
            $this->fields($headers);
        }
        $out .= $this->lastFields;
        if ($keepAlive && $this->lastAsksToClose) {
            $keepAlive = false;
            $closing = true;
        }
        if (!$this->lastHasDate) {
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

    /**
     * The head of an interim response (1xx: 100, 103 Early Hints, …) or of a 101 that switches
     * protocols: the application's fields but the framing ones, no Date, and for a 101
     * "Connection: Upgrade" (RFC 9110 §7.8).
     *
     * @param array<string, string|list<string>> $headers
     *
     * @throws \UnexpectedValueException when a header name or value could split the response
     */
    public function informational(int $status, array $headers): string
    {
        if ($status < 100 || $status > 199) {
            throw new \UnexpectedValueException(\sprintf('Invalid interim response status %d', $status));
        }
        if ($headers !== $this->lastHeaders) {
            $this->fields($headers);
        }

        return 'HTTP/1.1' . ($this->statusLines[$status] ?? $this->statusLine($status)) . $this->lastFields . ($status === 101 ? "Connection: Upgrade\r\n\r\n" : "\r\n");
    }

    /**
     * Serializes the application's header fields (all but the framing ones) into lastFields, and
     * remembers them as lastHeaders: the next response with equal headers (an app returning the
     * same header array, the common case) reuses the lines without building and checking them
     * again, 0.1–0.2 µs a response. Headers with a value that is not a string (a Stringable
     * object, a number) are not remembered: an object could turn into another string next time.
     *
     * @param array<string, string|list<string>> $headers
     *
     * @throws \UnexpectedValueException when a header name or value could split the response
     */
    private function fields(array $headers): void
    {
        $out = '';
        $lines = 0;
        $hasDate = false;
        $asksToClose = false;
        $strings = true;
        /** Every value, one after the other. */
        $text = '';
        foreach ($headers as $name => $values) {
            $kind = $this->names[$name] ?? $this->checkName((string) $name);
            if ($kind !== self::PLAIN) {
                if ($kind === self::FRAMING) {
                    $asksToClose = $asksToClose || self::asksToClose((string) $name, $values);
                    continue;
                }
                $hasDate = true;
            }
            if (\is_array($values)) {
                foreach ($values as $value) {
                    $strings = $strings && \is_string($value);
                    $value = (string) $value;
                    $out .= $name . ': ' . $value . "\r\n";
                    $text .= $value;
                    ++$lines;
                }
            } else {
                $strings = $strings && \is_string($values);
                // Turned into a string once: a Stringable could answer differently a second time.
                $value = (string) $values;
                $out .= $name . ': ' . $value . "\r\n";
                $text .= $value;
                ++$lines;
            }
        }
        // The values are checked all at once, in one pass: strtr() returns the very string it
        // was given when no byte is to be replaced, so the comparison is of two pointers. This
        // costs about 8 instructions a byte (a regular expression or ctype_print() cost more;
        // see docs/benchmarks.md), and runs only for headers that differ from the last ones.
        if (\strtr($text, self::CONTROLS, self::MARKS) !== $text) {
            throw $this->invalidValue($headers);
        }
        $this->lastHeaders = $strings ? $headers : null;
        $this->lastFields = $out;
        $this->lastHasDate = $hasDate;
        $this->lastAsksToClose = $asksToClose;
    }

    /** @param string|list<string> $values */
    private static function asksToClose(string $name, string|array $values): bool
    {
        if (\strcasecmp($name, 'connection') !== 0) {
            return false;
        }
        foreach ((array) $values as $value) {
            foreach (\explode(',', (string) $value) as $token) {
                if (\strcasecmp(\trim($token), 'close') === 0) {
                    return true;
                }
            }
        }

        return false;
    }

    /** The status line after the protocol, with the default reason phrase; remembered per status. */
    private function statusLine(int $status): string
    {
        if ($status < 100 || $status > 999) {
            throw new \UnexpectedValueException(\sprintf('Invalid response status %d', $status));
        }

        return $this->statusLines[$status] = ' ' . $status . ' ' . Status::reason($status) . "\r\n";
    }

    /** Checks a header name not seen before and remembers what to do with it. */
    private function checkName(string $name): int
    {
        if (\strcspn($name, self::CONTROLS . ": \t") !== \strlen($name) || $name === '') {
            throw new \UnexpectedValueException(\sprintf('Invalid response header name "%s"', \addcslashes($name, "\0..\37")));
        }
        $kind = match (\strtolower($name)) {
            'content-length', 'transfer-encoding', 'connection', 'keep-alive' => self::FRAMING,
            'date' => self::DATE,
            default => self::PLAIN,
        };
        if (\count($this->names) >= self::NAME_MEMORY) {
            $this->names = [];
        }
        $this->names[$name] = $kind;

        return $kind;
    }

    /** @param array<string, string|list<string>> $headers */
    private function invalidValue(array $headers): \UnexpectedValueException
    {
        foreach ($headers as $name => $values) {
            if (($this->names[$name] ?? self::PLAIN) === self::FRAMING) {
                continue;
            }
            foreach (\is_array($values) ? $values : [$values] as $value) {
                if (\strcspn((string) $value, self::CONTROLS) !== \strlen((string) $value)) {
                    return new \UnexpectedValueException(\sprintf('Invalid value for response header "%s"', $name));
                }
            }
        }

        return new \UnexpectedValueException('Invalid response header value');
    }

    /** The Date field's value for a response made now (remembered for the second). */
    public function dateValue(): string
    {
        return \substr($this->dateLine(), 6, -2);
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

    /** One piece of a chunked body (RFC 9112 §7.1); $piece must not be empty (that is the last chunk). */
    public function chunk(string $piece): string
    {
        return \dechex(\strlen($piece)) . "\r\n" . $piece . "\r\n";
    }

    /**
     * The last chunk of a chunked body, with its trailer fields (RFC 9112 §7.1.2); framing
     * fields among them are dropped.
     *
     * @param array<string, string|list<string>> $trailers
     *
     * @throws \UnexpectedValueException when a field name or value could split the message
     */
    public function lastChunk(array $trailers = []): string
    {
        if ($trailers === []) {
            return "0\r\n\r\n";
        }
        $this->fields($trailers);

        return "0\r\n" . $this->lastFields . "\r\n";
    }
}
