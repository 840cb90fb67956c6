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

    /** TLS versions by Guzzle's crypto_method: that version and those after it, as curl takes it. */
    private const CRYPTO_METHODS = [
        \STREAM_CRYPTO_METHOD_TLSv1_0_CLIENT => \STREAM_CRYPTO_METHOD_TLSv1_0_CLIENT | \STREAM_CRYPTO_METHOD_TLSv1_1_CLIENT | \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT | \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT,
        \STREAM_CRYPTO_METHOD_TLSv1_1_CLIENT => \STREAM_CRYPTO_METHOD_TLSv1_1_CLIENT | \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT | \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT,
        \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT => \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT | \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT,
        \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT => \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT,
    ];

    /**
     * Rejects option values of the wrong type as Guzzle's handlers do, with their messages (an
     * InvalidArgumentException from the handler call itself, not a rejected promise).
     *
     * @param array<string, mixed> $options
     *
     * @throws \InvalidArgumentException
     */
    public static function validate(array $options): void
    {
        if (isset($options['on_headers']) && !\is_callable($options['on_headers'])) {
            throw new \InvalidArgumentException('on_headers must be callable');
        }
        if (isset($options['progress']) && !\is_callable($options['progress'])) {
            throw new \InvalidArgumentException('progress client option must be callable');
        }
        if (isset($options['on_stats']) && !\is_callable($options['on_stats'])) {
            throw new \InvalidArgumentException('on_stats must be callable');
        }
        if (isset($options['verify']) && !\is_bool($options['verify']) && !\is_string($options['verify'])) {
            throw new \InvalidArgumentException('Invalid verify request option');
        }
        if (isset($options['crypto_method']) && !isset(self::CRYPTO_METHODS[$options['crypto_method']])) {
            throw new \InvalidArgumentException('Invalid crypto_method request option: unknown version provided');
        }
        if (isset($options['stream_context']) && !\is_array($options['stream_context'])) {
            throw new \InvalidArgumentException('stream_context must be an array');
        }
        if (isset($options['debug']) && !\is_bool($options['debug']) && !\is_resource($options['debug'])) {
            throw new \InvalidArgumentException('debug must be a boolean or a stream resource');
        }
    }

    /**
     * @param array<string, mixed> $options
     *
     * @throws HttpClientError when a file named by verify, cert or ssl_key does not exist
     */
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
                throw new HttpClientError(\sprintf('SSL %s not found: %s', $option === 'cert' ? 'certificate' : 'private key', (string) $file));
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
            cryptoMethod: isset($options['crypto_method']) ? self::CRYPTO_METHODS[$options['crypto_method']] : null,
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
