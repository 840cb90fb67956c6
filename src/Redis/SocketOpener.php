<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Spindle\Loop\ClientSocket;
use Spindle\Loop\ClientSocketException;
use Spindle\Loop\ClientSocketFailure;

/**
 * @internal Opens the socket (TCP, unix or TLS) of a connection with Loop\ClientSocket (only
 * the calling fiber waits for the connect and the TLS handshake) and words its failures.
 */
final class SocketOpener
{
    private function __construct()
    {
    }

    /**
     * @return resource
     *
     * @throws ConnectionException
     */
    public static function open(RedisConfig $config)
    {
        $deadline = $config->connectTimeout > 0 ? hrtime(true) / 1e9 + $config->connectTimeout : null;
        try {
            $socket = ClientSocket::connect(ClientSocket::uri($config->host, $config->port, $config->unixSocket), $deadline);
        } catch (ClientSocketException $e) {
            throw new ConnectionException(sprintf('Could not connect to Redis server %s: %s', $config->where(), match ($e->failure) {
                ClientSocketFailure::TimedOut => sprintf('timed out after %.3g s', $config->connectTimeout),
                ClientSocketFailure::Refused => 'connection refused',
                default => $e->reason !== '' ? $e->reason : 'error ' . $e->errno,
            }));
        }
        if ($config->tls) {
            try {
                ClientSocket::enableTls($socket, $config->tlsOptions + ['peer_name' => $config->host, 'SNI_enabled' => true], $deadline);
            } catch (ClientSocketException $e) {
                fclose($socket);
                throw new ConnectionException($e->failure === ClientSocketFailure::TlsTimedOut
                    ? sprintf('TLS handshake with Redis server %s timed out', $config->where())
                    : sprintf('TLS handshake with Redis server %s failed: %s', $config->where(), $e->warnings !== [] ? $e->warnings[\count($e->warnings) - 1] : 'unknown error'));
            }
        }

        return $socket;
    }
}
