<?php

declare(strict_types=1);

namespace Spindle\Loop;

/**
 * The client end of a TCP or unix socket, opened as every Spindle client (MySQL, Redis, HTTP)
 * opens it: connected without blocking the worker (only the calling fiber waits), by a
 * deadline, with TCP_NODELAY, non-blocking and unbuffered (each fread() returns what the kernel
 * has); TLS is started on it later, when the client's protocol says so (at once for Redis, after
 * the greeting for MySQL, after a proxy's CONNECT for HTTP).
 *
 * Failures come as ClientSocketException with what went wrong (ClientSocketFailure) and the
 * system's words for it; each client words its own error from them.
 */
final class ClientSocket
{
    private const TLS_METHODS = \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT | \STREAM_CRYPTO_METHOD_TLSv1_3_CLIENT;

    private function __construct()
    {
    }

    /** "tcp://host:port" (an IPv6 host in brackets) or "unix:///path". */
    public static function uri(string $host, int $port, ?string $unixSocket = null): string
    {
        return $unixSocket !== null
            ? 'unix://' . $unixSocket
            : 'tcp://' . (\str_contains($host, ':') ? '[' . $host . ']' : $host) . ':' . $port;
    }

    /**
     * Connects to $uri by $deadline (hrtime seconds; null: no deadline).
     *
     * @return resource
     *
     * @throws ClientSocketException
     */
    public static function connect(string $uri, ?float $deadline)
    {
        $context = \stream_context_create(['socket' => ['tcp_nodelay' => true]]);
        $errno = 0;
        $errstr = '';
        $warning = null;
        \set_error_handler(static function (int $type, string $message) use (&$warning): bool {
            $warning = $message;

            return true;
        });
        try {
            $socket = \stream_socket_client($uri, $errno, $errstr, null, \STREAM_CLIENT_CONNECT | \STREAM_CLIENT_ASYNC_CONNECT, $context);
        } finally {
            \restore_error_handler();
        }
        if ($socket === false) {
            throw new ClientSocketException(ClientSocketFailure::Open, (int) $errno, (string) $errstr !== '' ? (string) $errstr : ($warning ?? ''));
        }
        \stream_set_blocking($socket, false);
        \stream_set_read_buffer($socket, 0);
        \stream_set_write_buffer($socket, 0);
        $waiter = new SocketWaiter($socket);
        try {
            $ready = $waiter->wait(true, $deadline);
        } catch (\Throwable $e) {
            $waiter->cancel();
            \fclose($socket);
            throw $e;
        }
        $waiter->cancel();
        if (!$ready) {
            \fclose($socket);
            throw new ClientSocketException(ClientSocketFailure::TimedOut, 0, 'timed out');
        }
        if (!\str_starts_with($uri, 'unix://') && @\stream_socket_get_name($socket, true) === false) {
            [$code, $reason] = self::socketError($socket);
            \fclose($socket);
            throw new ClientSocketException(ClientSocketFailure::Refused, $code, $reason);
        }

        return $socket;
    }

    /**
     * Runs the TLS handshake (TLS 1.2 or 1.3) with the server on $socket by $deadline. The socket
     * stays open when it fails: the caller closes it.
     *
     * @param resource $socket
     * @param array<string, mixed> $sslOptions the "ssl" stream context options (peer_name, verify_peer, cafile, …)
     *
     * @throws ClientSocketException Tls (with the handshake's warnings) or TlsTimedOut
     */
    public static function enableTls($socket, array $sslOptions, ?float $deadline, ?SocketWaiter $waiter = null): void
    {
        foreach ($sslOptions as $name => $value) {
            \stream_context_set_option($socket, 'ssl', $name, $value);
        }
        // The TLS versions the client offers: 1.2 and 1.3 unless the options name others.
        $methods = \is_int($sslOptions['crypto_method'] ?? null) ? $sslOptions['crypto_method'] : self::TLS_METHODS;
        $own = $waiter === null;
        $waiter ??= new SocketWaiter($socket);
        $warnings = [];
        try {
            while (true) {
                \set_error_handler(static function (int $type, string $message) use (&$warnings): bool {
                    $warnings[] = $message;

                    return true;
                });
                try {
                    $done = \stream_socket_enable_crypto($socket, true, $methods);
                } finally {
                    \restore_error_handler();
                }
                if ($done === true) {
                    return;
                }
                if ($done === false) {
                    throw new ClientSocketException(ClientSocketFailure::Tls, 0, '', $warnings);
                }
                if (!$waiter->wait(false, $deadline)) {
                    throw new ClientSocketException(ClientSocketFailure::TlsTimedOut, 0, 'timed out');
                }
            }
        } finally {
            if ($own) {
                $waiter->cancel();
            }
        }
    }

    /**
     * Why a non-blocking connect failed (SO_ERROR), when the sockets extension can tell.
     *
     * @param resource $socket
     *
     * @return array{int, string} the error number (0 if unknown) and its text
     */
    private static function socketError($socket): array
    {
        if (\function_exists('socket_import_stream')) {
            $raw = @\socket_import_stream($socket);
            if ($raw !== false) {
                $code = @\socket_get_option($raw, \SOL_SOCKET, \SO_ERROR);
                if (\is_int($code) && $code !== 0) {
                    return [$code, \socket_strerror($code)];
                }
            }
        }

        return [0, ''];
    }
}
