<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/** TLS settings: verification is on by default, against the system CA store. */
final class TlsOptions
{
    public function __construct(
        public readonly bool $verifyPeer = true,
        public readonly bool $verifyPeerName = true,
        public readonly ?string $caFile = null,
        public readonly ?string $caPath = null,
        public readonly ?string $certFile = null,
        public readonly ?string $keyFile = null,
        public readonly ?string $passphrase = null,
        public readonly ?string $peerName = null,
        public readonly bool $allowSelfSigned = false,
        public readonly ?string $ciphers = null,
        /** The STREAM_CRYPTO_METHOD_*_CLIENT flags of the TLS versions offered; null: TLS 1.2 and 1.3. */
        public readonly ?int $cryptoMethod = null,
    ) {
    }

    /** @return array<string, mixed> the ssl context options for $host */
    public function contextOptions(string $host): array
    {
        $options = [
            'verify_peer' => $this->verifyPeer,
            'verify_peer_name' => $this->verifyPeerName,
            'allow_self_signed' => $this->allowSelfSigned,
            'peer_name' => $this->peerName ?? $host,
            'SNI_enabled' => true,
            'capture_peer_cert' => false,
        ];
        if ($this->caFile !== null) {
            $options['cafile'] = $this->caFile;
        }
        if ($this->caPath !== null) {
            $options['capath'] = $this->caPath;
        }
        if ($this->certFile !== null) {
            $options['local_cert'] = $this->certFile;
        }
        if ($this->keyFile !== null) {
            $options['local_pk'] = $this->keyFile;
        }
        if ($this->passphrase !== null) {
            $options['passphrase'] = $this->passphrase;
        }
        if ($this->ciphers !== null) {
            $options['ciphers'] = $this->ciphers;
        }
        if ($this->cryptoMethod !== null) {
            $options['crypto_method'] = $this->cryptoMethod;
        }

        return $options;
    }

    /** A key telling connections with different TLS settings apart in the pool. */
    public function key(): string
    {
        return \md5(\serialize([$this->verifyPeer, $this->verifyPeerName, $this->caFile, $this->caPath, $this->certFile, $this->keyFile, $this->peerName, $this->allowSelfSigned, $this->ciphers, $this->cryptoMethod]));
    }
}
