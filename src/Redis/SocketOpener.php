<?php

declare(strict_types=1);

namespace Spindle\Redis;

use Revolt\EventLoop;

/**
 * @internal Opens the non-blocking socket (TCP, unix or TLS) of a connection, suspending the
 * calling fiber while the connect and the TLS handshake are under way.
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
        $uri = $config->unixSocket !== null
            ? 'unix://' . $config->unixSocket
            : 'tcp://' . (str_contains($config->host, ':') ? '[' . $config->host . ']' : $config->host) . ':' . $config->port;
        $context = stream_context_create(['socket' => ['tcp_nodelay' => true]]);
        $errno = 0;
        $errstr = '';
        $socket = @stream_socket_client($uri, $errno, $errstr, null, STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT, $context);
        if ($socket === false) {
            throw new ConnectionException(sprintf('Could not connect to Redis server %s: %s', $config->where(), $errstr !== '' ? $errstr : 'error ' . $errno));
        }
        stream_set_blocking($socket, false);
        stream_set_read_buffer($socket, 0);
        stream_set_write_buffer($socket, 0);
        if (!self::wait($socket, true, $deadline)) {
            fclose($socket);
            throw new ConnectionException(sprintf('Could not connect to Redis server %s: timed out after %.3g s', $config->where(), $config->connectTimeout));
        }
        if ($config->unixSocket === null && @stream_socket_get_name($socket, true) === false) {
            fclose($socket);
            throw new ConnectionException(sprintf('Could not connect to Redis server %s: connection refused', $config->where()));
        }
        if ($config->tls) {
            self::enableTls($socket, $config, $deadline);
        }

        return $socket;
    }

    /** @param resource $socket */
    private static function enableTls($socket, RedisConfig $config, ?float $deadline): void
    {
        $options = $config->tlsOptions + ['peer_name' => $config->host, 'SNI_enabled' => true];
        foreach ($options as $name => $value) {
            stream_context_set_option($socket, 'ssl', $name, $value);
        }
        while (true) {
            error_clear_last();
            $result = @stream_socket_enable_crypto($socket, true, STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT | STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT);
            if ($result === true) {
                return;
            }
            if ($result === false) {
                fclose($socket);
                throw new ConnectionException(sprintf('TLS handshake with Redis server %s failed: %s', $config->where(), error_get_last()['message'] ?? 'unknown error'));
            }
            if (!self::wait($socket, false, $deadline)) {
                fclose($socket);
                throw new ConnectionException(sprintf('TLS handshake with Redis server %s timed out', $config->where()));
            }
        }
    }

    /**
     * @param resource $socket
     *
     * @return bool false when the deadline passed first
     */
    private static function wait($socket, bool $write, ?float $deadline): bool
    {
        $suspension = EventLoop::getSuspension();
        $done = false;
        $wake = static function (string $id, mixed $unused = null, bool $ready = true) use ($suspension, &$done): void {
            if (!$done) {
                $done = true;
                $suspension->resume($ready);
            }
        };
        $watcher = $write
            ? EventLoop::onWritable($socket, static fn (string $id) => $wake($id))
            : EventLoop::onReadable($socket, static fn (string $id) => $wake($id));
        $timer = $deadline === null ? null : EventLoop::delay(max(0.0, $deadline - hrtime(true) / 1e9), static fn (string $id) => $wake($id, null, false));
        try {
            return (bool) $suspension->suspend();
        } finally {
            EventLoop::cancel($watcher);
            if ($timer !== null) {
                EventLoop::cancel($timer);
            }
        }
    }
}
