<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Guzzle;

use Spindle\HttpClient\HttpClientError;
use Spindle\HttpClient\Options;
use Spindle\HttpClient\TlsOptions;

/**
 * Guzzle's request options as Spindle client options. Redirects, cookies, http_errors, headers,
 * query, json, form_params and multipart are Guzzle's own middleware and Client: the handler
 * sees their result.
 */
final class GuzzleOptions
{
    private function __construct()
    {
    }

    /** @param array<string, mixed> $options */
    public static function toOptions(array $options, string $scheme, string $host): Options
    {
        $timeout = (float) ($options['timeout'] ?? 0);
        $connect = (float) ($options['connect_timeout'] ?? 0);
        $read = (float) ($options['read_timeout'] ?? 0);

        return new Options(
            connectTimeout: $connect > 0 ? $connect : 300.0,
            idleTimeout: $read > 0 ? $read : null,
            timeout: $timeout > 0 ? $timeout : null,
            tls: self::tls($options),
            maxRedirects: 0,
            decodeContent: ($options['decode_content'] ?? true) !== false,
            advertiseEncodings: false,
            proxy: self::proxy($options['proxy'] ?? null, $scheme, $host),
        );
    }

    /** @param array<string, mixed> $options */
    private static function tls(array $options): TlsOptions
    {
        $verify = $options['verify'] ?? true;
        $caFile = null;
        $caPath = null;
        if (\is_string($verify)) {
            if (!\file_exists($verify)) {
                throw new HttpClientError(\sprintf('SSL CA bundle not found: %s', $verify));
            }
            \is_dir($verify) ? $caPath = $verify : $caFile = $verify;
        }
        $cert = $options['cert'] ?? null;
        $key = $options['ssl_key'] ?? null;
        $passphrase = null;
        if (\is_array($cert)) {
            [$cert, $passphrase] = [$cert[0] ?? null, $cert[1] ?? null];
        }
        if (\is_array($key)) {
            [$key, $passphrase] = [$key[0] ?? null, $key[1] ?? $passphrase];
        }
        foreach (['cert' => $cert, 'ssl_key' => $key] as $option => $file) {
            if ($file !== null && !\file_exists((string) $file)) {
                throw new HttpClientError(\sprintf('SSL %s file not found: %s', $option === 'cert' ? 'certificate' : 'private key', (string) $file));
            }
        }

        return new TlsOptions(
            verifyPeer: $verify !== false,
            verifyPeerName: $verify !== false,
            caFile: $caFile,
            caPath: $caPath,
            certFile: $cert === null ? null : (string) $cert,
            keyFile: $key === null ? null : (string) $key,
            passphrase: $passphrase === null ? null : (string) $passphrase,
            allowSelfSigned: $verify === false,
        );
    }

    private static function proxy(mixed $proxy, string $scheme, string $host): ?string
    {
        if (\is_string($proxy)) {
            return $proxy === '' ? null : $proxy;
        }
        if (!\is_array($proxy)) {
            return null;
        }
        $no = $proxy['no'] ?? [];
        if ($host !== '' && \is_array($no) && \GuzzleHttp\Utils::isHostInNoProxy($host, $no)) {
            return null;
        }
        $value = $proxy[$scheme] ?? null;

        return \is_string($value) && $value !== '' ? $value : null;
    }
}
