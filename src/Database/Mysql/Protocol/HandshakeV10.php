<?php

declare(strict_types=1);

namespace Spindle\Database\Mysql\Protocol;

use Spindle\Database\Mysql\MysqlException;

/** The server's initial handshake (Protocol::HandshakeV10). */
final class HandshakeV10
{
    public function __construct(
        public readonly string $serverVersion,
        public readonly int $connectionId,
        /** the 20-byte nonce for the auth plugins (without the trailing NUL) */
        public readonly string $scramble,
        public readonly int $capabilities,
        public readonly int $charset,
        public readonly int $statusFlags,
        public readonly string $authPlugin,
    ) {
    }

    /** @throws MysqlException 2027 when malformed, 2007 for another protocol version */
    public static function parse(string $payload): self
    {
        $buffer = new Buffer($payload);
        $version = $buffer->int1();
        if ($version !== 10) {
            throw new MysqlException(
                sprintf('Protocol mismatch; server version = %d, client version = 10', $version),
                Errors::VERSION_ERROR,
            );
        }
        $serverVersion = $buffer->nulString();
        $connectionId = $buffer->int4();
        $scramble = $buffer->bytes(8);
        $buffer->skip(1);
        $capabilities = $buffer->int2();
        $charset = 0;
        $status = 0;
        $authPlugin = '';
        if (!$buffer->atEnd()) {
            $charset = $buffer->int1();
            $status = $buffer->int2();
            $capabilities |= $buffer->int2() << 16;
            $authDataLength = $buffer->int1();
            $buffer->skip(10);
            if (($capabilities & Capability::SECURE_CONNECTION) !== 0) {
                $part2 = $buffer->bytes(max(13, $authDataLength - 8));
                if (str_ends_with($part2, "\0")) {
                    $part2 = substr($part2, 0, -1);
                }
                $scramble .= $part2;
            }
            if (($capabilities & Capability::PLUGIN_AUTH) !== 0 && !$buffer->atEnd()) {
                // Some servers end the name with the packet rather than a NUL.
                $rest = $buffer->rest();
                $nul = strpos($rest, "\0");
                $authPlugin = $nul === false ? $rest : substr($rest, 0, $nul);
            }
        }
        if (($capabilities & Capability::PROTOCOL_41) === 0) {
            throw new MysqlException('The server does not speak protocol 4.1', Errors::VERSION_ERROR);
        }

        return new self($serverVersion, $connectionId, $scramble, $capabilities, $charset, $status, $authPlugin);
    }

    /** The version without the "5.5.5-" prefix MariaDB adds for old replication clients. */
    public function displayVersion(): string
    {
        if (str_starts_with($this->serverVersion, '5.5.5-') && str_contains($this->serverVersion, 'MariaDB')) {
            return substr($this->serverVersion, 6);
        }

        return $this->serverVersion;
    }
}
