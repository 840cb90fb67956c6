<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/**
 * The signature of a Pusher HTTP API request: `auth_signature` is HMAC-SHA256(secret,
 * "METHOD\nPATH\nQUERY") in hex, where QUERY is the request's other query parameters, names in
 * lower case, sorted, as `name=value` joined with `&`; `auth_key` names the app, `auth_timestamp`
 * must be within MAX_AGE seconds of now (a replayed request is refused), `auth_version` is 1.0,
 * and `body_md5` is the MD5 of a non-empty body.
 */
final class RequestSignature
{
    /** Seconds an auth_timestamp may be off this server's clock, either way. */
    public const MAX_AGE = 600;

    /**
     * Null when the request is signed right for $app; otherwise why not.
     *
     * @param array<string, string> $query the decoded query parameters
     */
    public static function check(PusherApp $app, string $method, string $path, array $query, string $body, ?int $now = null): ?string
    {
        $now ??= \time();
        $signature = $query['auth_signature'] ?? '';
        if (($query['auth_key'] ?? '') !== $app->key) {
            return 'Unknown auth_key';
        }
        if (($query['auth_version'] ?? '') !== '1.0') {
            return 'auth_version must be 1.0';
        }
        $timestamp = $query['auth_timestamp'] ?? '';
        if (\preg_match('/\A\d{1,12}\z/', $timestamp) !== 1 || \abs($now - (int) $timestamp) > self::MAX_AGE) {
            return \sprintf('Timestamp expired: auth_timestamp must be within %d seconds of the server time (%d)', self::MAX_AGE, $now);
        }
        if ($body !== '' && !\hash_equals(\md5($body), $query['body_md5'] ?? '')) {
            return 'body_md5 does not match the body';
        }
        if (!\hash_equals(self::sign($app, $method, $path, $query), $signature)) {
            return 'Invalid signature';
        }

        return null;
    }

    /** @param array<string, string> $query */
    public static function sign(PusherApp $app, string $method, string $path, array $query): string
    {
        return \hash_hmac('sha256', \strtoupper($method) . "\n" . $path . "\n" . self::canonicalQuery($query), $app->secret);
    }

    /**
     * The query a sender signs and sends for $body (auth_* and body_md5 filled in, auth_signature last).
     *
     * @param array<string, string> $extra
     *
     * @return array<string, string>
     */
    public static function signedQuery(PusherApp $app, string $method, string $path, string $body, int $timestamp, array $extra = []): array
    {
        $query = $extra + ['auth_key' => $app->key, 'auth_timestamp' => (string) $timestamp, 'auth_version' => '1.0'];
        if ($body !== '') {
            $query['body_md5'] = \md5($body);
        }
        $query['auth_signature'] = self::sign($app, $method, $path, $query);

        return $query;
    }

    /** @param array<string, string> $query */
    private static function canonicalQuery(array $query): string
    {
        $pairs = [];
        foreach ($query as $name => $value) {
            $name = \strtolower((string) $name);
            if ($name !== 'auth_signature') {
                $pairs[$name] = $name . '=' . $value;
            }
        }
        \ksort($pairs, \SORT_STRING);

        return \implode('&', $pairs);
    }
}
