<?php

declare(strict_types=1);

namespace Spindle\Http\Http2;

/**
 * Checks a decoded request header list (RFC 9113 §8.2, §8.3): field names in lower case and made of
 * token characters, values without NUL, CR, LF or surrounding white space, pseudo-header fields
 * first, once each, only :method :scheme :path :authority, the ones a request needs present, no
 * connection-specific fields, `te` only `trailers`, one content-length. A malformed request is a stream
 * error of type PROTOCOL_ERROR (§8.1.1).
 *
 * @internal
 */
final class RequestHeaders
{
    private const TOKEN = "abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~";
    private const CONNECTION_SPECIFIC = [
        'connection' => true, 'proxy-connection' => true, 'keep-alive' => true, 'transfer-encoding' => true, 'upgrade' => true,
    ];

    /**
     * Names checked before that need no check of their value beyond the common one (not te,
     * not content-length), up to 512 per process: a browser's 15–20 fields then cost an isset()
     * each instead of strspn() and three comparisons.
     *
     * @var array<string, true>
     */
    private static array $plainNames = [];

    /**
     * @param list<array{string, string}> $headers
     * @return int the content-length, or -1 when there is none
     * @throws Http2StreamError
     */
    public static function check(int $streamId, array $headers, bool $trailers): int
    {
        $pseudo = [];
        $regular = false;
        $length = -1;
        foreach ($headers as [$name, $value]) {
            if ($name !== '' && $name[0] === ':') {
                if ($trailers) {
                    throw self::malformed($streamId, "Pseudo-header field $name in trailers");
                }
                if ($regular) {
                    throw self::malformed($streamId, "Pseudo-header field $name after a regular field");
                }
                if ($name !== ':method' && $name !== ':scheme' && $name !== ':path' && $name !== ':authority') {
                    throw self::malformed($streamId, "Pseudo-header field $name is not a request's");
                }
                if (isset($pseudo[$name])) {
                    throw self::malformed($streamId, "Pseudo-header field $name repeated");
                }
                $pseudo[$name] = $value;
            } elseif (isset(self::$plainNames[$name])) {
                $regular = true;
            } else {
                $regular = true;
                if ($name === '' || strspn($name, self::TOKEN) !== \strlen($name)) {
                    throw self::malformed($streamId, "Field name '" . addcslashes($name, "\0..\37\177..\377") . "' is not a lower-case token");
                }
                if (isset(self::CONNECTION_SPECIFIC[$name])) {
                    throw self::malformed($streamId, "Connection-specific field $name");
                }
                if ($name === 'te' && $value !== 'trailers') {
                    throw self::malformed($streamId, 'te other than "trailers"');
                }
                if ($name === 'content-length' && !$trailers) {
                    if ($value === '' || !ctype_digit($value) || \strlen($value) > 18 || ($length !== -1 && (int) $value !== $length)) {
                        throw self::malformed($streamId, "Invalid content-length '$value'");
                    }
                    $length = (int) $value;
                } elseif ($name !== 'te' && \count(self::$plainNames) < 512) {
                    self::$plainNames[$name] = true;
                }
            }
            // str_contains() is memchr(); strpbrk() walks every byte against every character:
            // three memchr() calls take a third of its time on a browser's values.
            if ($value !== '' && (str_contains($value, "\n") || str_contains($value, "\r") || str_contains($value, "\0")
                || $value[0] === ' ' || $value[0] === "\t" || $value[-1] === ' ' || $value[-1] === "\t")) {
                throw self::malformed($streamId, "Invalid value in field $name");
            }
        }
        if ($trailers) {
            return -1;
        }
        $method = $pseudo[':method'] ?? null;
        if ($method === null || $method === '') {
            throw self::malformed($streamId, 'Request without :method');
        }
        if ($method === 'CONNECT') {
            if (isset($pseudo[':scheme']) || isset($pseudo[':path']) || !isset($pseudo[':authority'])) {
                throw self::malformed($streamId, 'CONNECT needs :authority and no :scheme or :path');
            }

            return $length;
        }
        if (($pseudo[':scheme'] ?? '') === '' || ($pseudo[':path'] ?? '') === '') {
            throw self::malformed($streamId, 'Request without :scheme or :path');
        }

        return $length;
    }

    private static function malformed(int $streamId, string $reason): Http2StreamError
    {
        return new Http2StreamError($streamId, ErrorCode::ProtocolError, 'Malformed request: ' . $reason);
    }
}
