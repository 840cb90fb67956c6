<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

/** Builds the client's side of the connection phase (Protocol::SSLRequest, Protocol::HandshakeResponse41). */
final class HandshakeResponse
{
    /** The largest packet the client accepts, announced to the server. */
    public const MAX_PACKET_SIZE = 0x40000000;

    private function __construct()
    {
    }

    public static function sslRequest(int $capabilities, int $charset): string
    {
        return Buffer::writeInt4($capabilities) . Buffer::writeInt4(self::MAX_PACKET_SIZE)
            . \chr($charset & 0xFF) . str_repeat("\0", 23);
    }

    public static function build(
        int $capabilities,
        int $charset,
        string $user,
        string $authResponse,
        ?string $database,
        string $authPlugin,
    ): string {
        $payload = self::sslRequest($capabilities, $charset) . $user . "\0";
        if (($capabilities & Capability::PLUGIN_AUTH_LENENC_CLIENT_DATA) !== 0) {
            $payload .= Buffer::writeLenencString($authResponse);
        } elseif (($capabilities & Capability::SECURE_CONNECTION) !== 0) {
            $payload .= \chr(\strlen($authResponse)) . $authResponse;
        } else {
            $payload .= $authResponse . "\0";
        }
        if (($capabilities & Capability::CONNECT_WITH_DB) !== 0) {
            $payload .= $database . "\0";
        }
        if (($capabilities & Capability::PLUGIN_AUTH) !== 0) {
            $payload .= $authPlugin . "\0";
        }

        return $payload;
    }
}
