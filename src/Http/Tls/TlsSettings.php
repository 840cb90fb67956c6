<?php

declare(strict_types=1);

namespace Spindle\Http\Tls;

/**
 * HTTPS on the listener (`--tls-cert=PEM --tls-key=PEM`, repeatable for several certificates):
 * TLS 1.2 and 1.3 with AEAD ciphers only, the certificate chosen by SNI among those given (the
 * first is the default), ALPN offering h2 and http/1.1. The files are read at every handshake
 * (OpenSSL loads them into each connection's context), so a renewed certificate is served from
 * the next connection on, without a reload.
 */
final class TlsSettings
{
    /** TLS 1.2 suites with forward secrecy and AEAD; TLS 1.3's are all AEAD. */
    private const CIPHERS = 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305';

    /** @param non-empty-list<TlsCertificate> $certificates the first is served when no SNI name matches */
    public function __construct(public readonly array $certificates, public readonly bool $http2 = true)
    {
    }

    /**
     * Checks the pairs of files and reads the names each certificate is for.
     *
     * @param list<string> $certs
     * @param list<string> $keys
     *
     * @throws \InvalidArgumentException with a message for the user
     */
    public static function fromFiles(array $certs, array $keys, bool $http2 = true): self
    {
        if ($certs === [] || \count($certs) !== \count($keys)) {
            throw new \InvalidArgumentException(\sprintf('--tls-cert and --tls-key come in pairs: %d certificate(s), %d key(s)', \count($certs), \count($keys)));
        }
        $certificates = [];
        foreach ($certs as $i => $cert) {
            $certificates[] = TlsCertificate::fromFiles($cert, $keys[$i]);
        }

        return new self($certificates, $http2);
    }

    /**
     * The options of the "ssl" stream context an accepted socket is given before its handshake.
     *
     * @return array<string, mixed>
     */
    public function contextOptions(): array
    {
        $default = $this->certificates[0];
        $options = [
            'local_cert' => $default->certFile,
            'local_pk' => $default->keyFile,
            'crypto_method' => \STREAM_CRYPTO_METHOD_TLSv1_2_SERVER | \STREAM_CRYPTO_METHOD_TLSv1_3_SERVER,
            'ciphers' => self::CIPHERS,
            'honor_cipher_order' => true,
            'disable_compression' => true,
            'single_dh_use' => true,
            'single_ecdh_use' => true,
            'verify_peer' => false,
            'alpn_protocols' => $this->http2 ? 'h2,http/1.1' : 'http/1.1',
        ];
        $byName = [];
        foreach ($this->certificates as $certificate) {
            foreach ($certificate->names as $name) {
                $byName[$name] ??= ['local_cert' => $certificate->certFile, 'local_pk' => $certificate->keyFile];
            }
        }
        if (\count($this->certificates) > 1 && $byName !== []) {
            $options['SNI_enabled'] = true;
            $options['SNI_server_certs'] = $byName;
        }

        return $options;
    }
}
