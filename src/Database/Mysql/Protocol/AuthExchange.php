<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;

/**
 * The connection phase of the MySQL protocol, apart from the command machine: the capabilities
 * chosen from the server's greeting, the handshake response (after the SSL request when TLS is
 * configured), and the authentication exchange (plugin switches, caching_sha2_password's fast
 * and full authentication, the server's RSA key). Payloads in, payloads out; ClientProtocol
 * frames them and keeps the phase.
 *
 * @internal
 */
final class AuthExchange
{
    private ?HandshakeV10 $handshake = null;
    private int $capabilities = 0;
    private string $authPlugin = '';
    private string $nonce = '';
    private bool $tls = false;
    private bool $awaitingPublicKey = false;

    public function __construct(
        private readonly ConnectionConfig $config,
        private readonly Charset $charset,
        /** the transport is safe for a cleartext password without TLS (a unix socket) */
        private readonly bool $secureTransport,
    ) {
    }

    /**
     * The server's greeting: the capabilities to use, and the packet to send (the SSL request
     * when TLS is configured, else the handshake response).
     *
     * @return array{string, bool} the packet, and whether it is the SSL request
     *
     * @throws MysqlException
     */
    public function handshake(string $payload): array
    {
        if ($payload !== '' && $payload[0] === "\xFF") {
            throw ErrPacket::parse($payload);
        }
        $handshake = HandshakeV10::parse($payload);
        $this->handshake = $handshake;
        $this->nonce = $handshake->scramble;
        $wanted = Capability::LONG_PASSWORD | Capability::LONG_FLAG | Capability::PROTOCOL_41
            | Capability::TRANSACTIONS | Capability::SECURE_CONNECTION | Capability::MULTI_RESULTS
            | Capability::PS_MULTI_RESULTS | Capability::PLUGIN_AUTH
            | Capability::PLUGIN_AUTH_LENENC_CLIENT_DATA | Capability::DEPRECATE_EOF
            | Capability::SESSION_TRACK;
        if ($this->config->multiStatements) {
            $wanted |= Capability::MULTI_STATEMENTS;
        }
        if ($this->config->database !== null && $this->config->database !== '') {
            $wanted |= Capability::CONNECT_WITH_DB;
        }
        if ($this->config->offersLocalInfile()) {
            $wanted |= Capability::LOCAL_FILES;
        }
        if ($this->config->foundRows) {
            $wanted |= Capability::FOUND_ROWS;
        }
        if ($this->config->ignoreSpace) {
            $wanted |= Capability::IGNORE_SPACE;
        }
        if ($this->config->tls !== null) {
            if (($handshake->capabilities & Capability::SSL) === 0) {
                throw new MysqlException('SSL connection error: the server does not support TLS', Errors::SSL_CONNECTION_ERROR);
            }
            $wanted |= Capability::SSL;
        }
        $this->capabilities = $wanted & $handshake->capabilities;
        if ($this->config->tls !== null) {
            return [HandshakeResponse::sslRequest($this->capabilities, $this->charset->id), true];
        }

        return [$this->handshakeResponse(), false];
    }

    /** TLS is up after the SSL request: the handshake response to send. */
    public function tlsEstablished(): string
    {
        $this->tls = true;

        return $this->handshakeResponse();
    }

    public function capabilities(): int
    {
        return $this->capabilities;
    }

    public function serverHandshake(): ?HandshakeV10
    {
        return $this->handshake;
    }

    private function secure(): bool
    {
        return $this->tls || $this->secureTransport;
    }

    private function handshakeResponse(): string
    {
        $plugin = $this->handshake->authPlugin ?? '';
        $response = Auth::response($plugin, $this->config->password, $this->nonce, $this->secure());
        if ($response === null) {
            // An unknown default plugin: answer as mysql_native_password; the server switches if it must.
            $plugin = AuthPlugin::NativePassword->value;
            $response = Auth::nativePassword($this->config->password, $this->nonce);
        }
        if ($plugin === '') {
            $plugin = AuthPlugin::NativePassword->value;
        }
        $this->authPlugin = $plugin;

        return HandshakeResponse::build(
            $this->capabilities,
            $this->charset->id,
            $this->config->user,
            $response,
            $this->config->database,
            $plugin,
        );
    }

    /**
     * One packet of the authentication exchange: the OK that ends it, a packet to send, or null
     * (nothing to send; the next packet decides).
     *
     * @throws MysqlException the server's error, or 2059 for a plugin that cannot be used
     */
    public function next(string $payload): OkPacket|string|null
    {
        $header = $payload === '' ? -1 : \ord($payload[0]);
        switch ($header) {
            case 0x00:
                return OkPacket::parse($payload, ($this->capabilities & Capability::SESSION_TRACK) !== 0);
            case 0xFF:
                throw ErrPacket::parse($payload);
            case 0xFE:
                return $this->authSwitch($payload);
            case 0x01:
                return $this->authMoreData(substr($payload, 1));
            default:
                throw Errors::malformed(sprintf('unexpected packet 0x%02X during authentication', $header));
        }
    }

    private function authSwitch(string $payload): string
    {
        if (\strlen($payload) === 1) {
            throw new MysqlException(
                "Authentication plugin 'mysql_old_password' cannot be loaded: not supported",
                Errors::AUTH_PLUGIN_CANNOT_LOAD,
            );
        }
        $buffer = new Buffer($payload);
        $buffer->skip(1);
        $plugin = $buffer->nulString();
        $data = $buffer->rest();
        if (str_ends_with($data, "\0")) {
            $data = substr($data, 0, -1);
        }
        $response = Auth::response($plugin, $this->config->password, $data, $this->secure());
        if ($response === null) {
            throw new MysqlException(
                $plugin === AuthPlugin::ClearPassword->value
                    ? "Authentication plugin 'mysql_clear_password' refused: it needs TLS or a unix socket"
                    : sprintf("Authentication plugin '%s' cannot be loaded: not supported", $plugin),
                Errors::AUTH_PLUGIN_CANNOT_LOAD,
            );
        }
        $this->authPlugin = $plugin;
        $this->nonce = $data;
        $this->awaitingPublicKey = false;

        return $response;
    }

    private function authMoreData(string $data): ?string
    {
        if ($this->authPlugin !== AuthPlugin::CachingSha2Password->value) {
            throw Errors::malformed(sprintf('unexpected auth data for plugin %s', $this->authPlugin));
        }
        if ($this->awaitingPublicKey) {
            $this->awaitingPublicKey = false;

            return Auth::rsaEncryptPassword($this->config->password, $this->nonce, $data);
        }
        if ($data === \chr(Auth::FAST_AUTH_SUCCESS)) {
            return null;
        }
        if ($data !== \chr(Auth::PERFORM_FULL_AUTH)) {
            throw Errors::malformed('unexpected caching_sha2_password state');
        }
        if ($this->secure()) {
            return $this->config->password . "\0";
        }
        if ($this->config->serverPublicKey !== null) {
            return Auth::rsaEncryptPassword($this->config->password, $this->nonce, $this->config->serverPublicKey);
        }
        $this->awaitingPublicKey = true;

        return Auth::REQUEST_PUBLIC_KEY;
    }
}
