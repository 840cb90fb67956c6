<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * Sends one command to a running master over its control socket (see ControlServer for the
 * protocol) and returns the decoded reply, {"ok":false,"error":...} replies included.
 * Everything that keeps a reply from arriving is a ControlError with a message for the user.
 * Stateless: one instance can send any number of commands.
 */
final class ControlClient
{
    private const MAX_REPLY_BYTES = 4 * 1024 * 1024;
    private const ECONNREFUSED = 111;
    private const EACCES = 13;

    /**
     * @param array<array-key, mixed> $arguments
     *
     * @return array<array-key, mixed> the reply; "ok" is a bool
     */
    public function send(string $socketPath, string $command, array $arguments = [], float $timeout = 30.0): array
    {
        \clearstatcache(true, $socketPath);
        if (!\file_exists($socketPath)) {
            throw new ControlError(\sprintf(
                'No Spindle server is running: the control socket %s does not exist (is the server started, with the same pid file?)',
                $socketPath,
            ));
        }
        $deadline = \microtime(true) + $timeout;
        $stream = @\stream_socket_client('unix://' . $socketPath, $errno, $error, \max(0.001, $timeout));
        if ($stream === false) {
            throw new ControlError(match ($errno) {
                self::ECONNREFUSED => \sprintf(
                    'The control socket %s is stale: no Spindle master is listening on it (the master has probably crashed; starting the server replaces the file)',
                    $socketPath,
                ),
                self::EACCES => \sprintf('Permission denied on the control socket %s: the server runs as another user', $socketPath),
                default => \sprintf('Cannot connect to the Spindle master on %s: %s', $socketPath, $error !== '' ? $error : 'unknown error'),
            });
        }
        try {
            $request = \json_encode(
                ['command' => $command, 'arguments' => $arguments === [] ? new \stdClass() : $arguments],
                \JSON_THROW_ON_ERROR | \JSON_UNESCAPED_SLASHES,
            ) . "\n";
            if (\strlen($request) > ControlServer::MAX_REQUEST_BYTES) {
                throw new ControlError(\sprintf('The %s request is larger than %d bytes', $command, ControlServer::MAX_REQUEST_BYTES));
            }
            \stream_set_blocking($stream, false);
            self::write($stream, $request, $socketPath, $deadline, $timeout);

            return self::decode(self::readLine($stream, $socketPath, $deadline, $timeout), $socketPath);
        } catch (\JsonException $e) {
            throw new ControlError('Cannot encode the control request: ' . $e->getMessage(), 0, $e);
        } finally {
            @\fclose($stream);
        }
    }

    /** @param resource $stream */
    private static function write(mixed $stream, string $data, string $socketPath, float $deadline, float $timeout): void
    {
        while ($data !== '') {
            $written = @\fwrite($stream, $data);
            if ($written === false) {
                throw new ControlError(\sprintf('The Spindle master on %s closed the connection before the request was sent', $socketPath));
            }
            $data = (string) \substr($data, $written);
            if ($data !== '') {
                $read = $except = null;
                $write = [$stream];
                self::wait($read, $write, $except, $socketPath, $deadline, $timeout);
            }
        }
    }

    /** @param resource $stream */
    private static function readLine(mixed $stream, string $socketPath, float $deadline, float $timeout): string
    {
        $buffer = '';
        while (true) {
            $data = @\fread($stream, 65536);
            if (\is_string($data) && $data !== '') {
                $buffer .= $data;
                $end = \strpos($buffer, "\n");
                if ($end !== false) {
                    return \substr($buffer, 0, $end);
                }
                if (\strlen($buffer) > self::MAX_REPLY_BYTES) {
                    throw new ControlError(\sprintf('Malformed reply from the Spindle master on %s: larger than %d bytes', $socketPath, self::MAX_REPLY_BYTES));
                }
                continue;
            }
            if ($data === false || \feof($stream)) {
                if ($buffer === '') {
                    throw new ControlError(\sprintf('The Spindle master on %s closed the connection without replying', $socketPath));
                }

                return $buffer;
            }
            $read = [$stream];
            $write = $except = null;
            self::wait($read, $write, $except, $socketPath, $deadline, $timeout);
        }
    }

    /**
     * @param array<resource>|null $read
     * @param array<resource>|null $write
     * @param array<resource>|null $except
     */
    private static function wait(?array &$read, ?array &$write, ?array &$except, string $socketPath, float $deadline, float $timeout): void
    {
        $left = $deadline - \microtime(true);
        $seconds = (int) $left;
        if ($left <= 0 || @\stream_select($read, $write, $except, $seconds, (int) \ceil(($left - $seconds) * 1_000_000)) === 0) {
            throw new ControlError(\sprintf('No reply from the Spindle master on %s within %s s', $socketPath, \round($timeout, 3)));
        }
    }

    /** @return array<array-key, mixed> */
    private static function decode(string $line, string $socketPath): array
    {
        try {
            $reply = \json_decode($line, true, 512, \JSON_THROW_ON_ERROR);
        } catch (\JsonException $e) {
            throw new ControlError(\sprintf('Malformed reply from the Spindle master on %s: %s', $socketPath, $e->getMessage()), 0, $e);
        }
        if (!\is_array($reply) || !\is_bool($reply['ok'] ?? null)) {
            throw new ControlError(\sprintf('Malformed reply from the Spindle master on %s: not an object with "ok"', $socketPath));
        }

        return $reply;
    }
}
