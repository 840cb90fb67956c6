<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * Sends one command to a running master over its control socket (see ControlServer for the
 * protocol) and returns the decoded reply, {"ok":false,"error":...} replies included.
 * Everything that keeps a reply from arriving is a ControlError with a message for the user.
 * Only a socket owned by this user or root is trusted: checked with lstat() before connecting,
 * and again after, so a socket swapped in meanwhile gets no request.
 * Stateless: one instance can send any number of commands.
 */
final class ControlClient
{
    private const MAX_REPLY_BYTES = 4 * 1024 * 1024;
    private const ECONNREFUSED = 111;
    private const EACCES = 13;
    private const S_IFMT = 0170000;
    private const S_IFSOCK = 0140000;
    private const S_IFLNK = 0120000;

    /**
     * @param array<array-key, mixed> $arguments
     *
     * @return array<array-key, mixed> the reply; "ok" is a bool
     */
    public function send(string $socketPath, string $command, array $arguments = [], float $timeout = 30.0): array
    {
        $checked = self::trustedSocket($socketPath);
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
        \clearstatcache(true, $socketPath);
        $connected = @\lstat($socketPath);
        if ($connected === false || $connected['ino'] !== $checked['ino'] || $connected['dev'] !== $checked['dev']) {
            @\fclose($stream);
            throw new ControlError(\sprintf('The control socket %s was replaced while connecting to it: not sending anything', $socketPath));
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

    /**
     * The socket file's lstat() figures, once it is known to be a socket (not a symlink) owned by
     * this user or by root: anyone else's socket could answer anything, also at a path this user
     * gave (a shared directory, a pid file of an older version in /tmp).
     *
     * @return array{ino: int, dev: int}
     */
    private static function trustedSocket(string $socketPath): array
    {
        \clearstatcache(true, $socketPath);
        $stat = @\lstat($socketPath);
        if ($stat === false) {
            throw new ControlError(\sprintf(
                'No Spindle server is running: the control socket %s does not exist (is the server started, with the same pid file?)',
                $socketPath,
            ));
        }
        if (($stat['mode'] & self::S_IFMT) !== self::S_IFSOCK) {
            throw new ControlError(\sprintf(
                'Refusing the control socket %s: it is %s, not a socket',
                $socketPath,
                ($stat['mode'] & self::S_IFMT) === self::S_IFLNK ? 'a symbolic link' : 'another kind of file',
            ));
        }
        $uid = \posix_geteuid();
        if ($stat['uid'] !== $uid && $stat['uid'] !== 0) {
            throw new ControlError(\sprintf(
                'Refusing the control socket %s: it belongs to %s, not to you, %s, or to root. Run the command as the user that runs the server',
                $socketPath,
                self::userName($stat['uid']),
                self::userName($uid),
            ));
        }

        return ['ino' => $stat['ino'], 'dev' => $stat['dev']];
    }

    private static function userName(int $uid): string
    {
        $user = \posix_getpwuid($uid);

        return \is_array($user) ? \sprintf('user %s (uid %d)', $user['name'], $uid) : \sprintf('uid %d', $uid);
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
