<?php

declare(strict_types=1);

namespace Spindle\Http\Tls;

/** One certificate and its private key, checked once when the server starts. */
final class TlsCertificate
{
    /** @param list<string> $names the DNS names it is for (its subjectAltName, or its CN) */
    private function __construct(
        public readonly string $certFile,
        public readonly string $keyFile,
        public readonly array $names,
    ) {
    }

    /** @throws \InvalidArgumentException with a message for the user */
    public static function fromFiles(string $certFile, string $keyFile): self
    {
        foreach (['certificate' => $certFile, 'key' => $keyFile] as $what => $file) {
            if (!\is_file($file) || !\is_readable($file)) {
                throw new \InvalidArgumentException(\sprintf('The TLS %s %s cannot be read', $what, $file));
            }
        }
        $mode = (int) @\fileperms($keyFile);
        if (($mode & 0o004) !== 0) {
            throw new \InvalidArgumentException(\sprintf('The TLS key %s is readable by every user (mode %o): make it private (chmod 600) first', $keyFile, $mode & 0o777));
        }
        $cert = @\openssl_x509_read((string) \file_get_contents($certFile));
        if ($cert === false) {
            throw new \InvalidArgumentException(\sprintf('%s holds no PEM certificate', $certFile));
        }
        $key = @\openssl_pkey_get_private((string) \file_get_contents($keyFile));
        if ($key === false) {
            throw new \InvalidArgumentException(\sprintf('%s holds no PEM private key (an encrypted key cannot be used)', $keyFile));
        }
        if (!\openssl_x509_check_private_key($cert, $key)) {
            throw new \InvalidArgumentException(\sprintf('The key %s does not belong to the certificate %s', $keyFile, $certFile));
        }
        $parsed = \openssl_x509_parse($cert) ?: [];
        $names = [];
        foreach (\explode(',', (string) ($parsed['extensions']['subjectAltName'] ?? '')) as $entry) {
            $entry = \trim($entry);
            if (\str_starts_with($entry, 'DNS:')) {
                $names[] = \strtolower(\substr($entry, 4));
            }
        }
        if ($names === [] && \is_string($parsed['subject']['CN'] ?? null)) {
            $names[] = \strtolower($parsed['subject']['CN']);
        }

        return new self(\realpath($certFile) ?: $certFile, \realpath($keyFile) ?: $keyFile, $names);
    }
}
