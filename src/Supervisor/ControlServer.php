<?php

declare(strict_types=1);

namespace Spindle\Supervisor;

/**
 * The master's control channel: a unix domain socket that `spindle status|stop|reload` talk to.
 *
 * Nothing here blocks while waiting for clients: the master puts streams() into its own
 * stream_select() read set and calls poll() with what came back readable, then answers each
 * returned request with reply(). Call poll() on every turn of the loop, also when nothing is
 * readable, so clients that never send a request are dropped (after $idleTimeout seconds).
 *
 * Protocol: the client sends one JSON object on one line, at most MAX_REQUEST_BYTES:
 *   {"command":"status|stop|reload","arguments":{...}}\n
 * and receives one JSON object on one line, after which the server closes the connection:
 *   {"ok":true,...}\n   or   {"ok":false,"error":"..."}\n
 * Malformed or unknown requests are answered by the server itself; poll() only returns
 * requests whose command is in ControlRequest::COMMANDS.
 *
 * The socket file is created with mode 0600 (under umask 0177, then checked with lstat()), so
 * only the user running the master can connect; a client checks that the socket belongs to its
 * own user or root before it sends anything (ControlClient). Without --pid-file the socket lives
 * in a RuntimeDirectory that only that user can write.
 * Forked workers inherit the descriptors: close() (or the destructor) in a process other than
 * the one that created the server closes them without removing the socket file.
 */
final class ControlServer
{
    public const MAX_REQUEST_BYTES = 65536;
    /** sun_path holds 108 bytes on Linux, including the terminating NUL. */
    private const MAX_PATH_BYTES = 107;
    private const REPLY_TIMEOUT = 1.0;
    private const ECONNREFUSED = 111;

    /** @var resource|null */
    private mixed $server;
    /** @var array<int, array{stream: resource, buffer: string, deadline: float}> connections still sending their request, by client id */
    private array $reading = [];
    /** @var array<int, resource> connections whose request was returned by poll() and awaits reply(), by client id */
    private array $waiting = [];
    private int $nextClientId = 1;
    private readonly int $ownerPid;
    private readonly int $inode;

    public function __construct(
        private readonly string $path,
        private readonly float $idleTimeout = 5.0,
        private readonly int $maxClients = 64,
    ) {
        if ($path === '' || \strlen($path) > self::MAX_PATH_BYTES) {
            throw new ControlError(\sprintf(
                'Cannot use %s as the control socket: a unix socket path must be 1 to %d bytes long',
                $path === '' ? '""' : $path,
                self::MAX_PATH_BYTES,
            ));
        }
        $this->removeStaleSocket();

        // The umask gives the socket mode 0600 from the moment it exists.
        $umask = \umask(0177);
        try {
            $server = @\stream_socket_server('unix://' . $path, $errno, $error);
        } finally {
            \umask($umask);
        }
        if ($server === false) {
            throw new ControlError(\sprintf('Cannot create the control socket %s: %s', $path, $error !== '' ? $error : 'unknown error'));
        }
        // Checked rather than chmod()ed: chmod() follows a symlink that could replace the socket.
        \clearstatcache(true, $path);
        $stat = @\lstat($path);
        if ($stat === false || ($stat['mode'] & 0170000) !== 0140000 || ($stat['mode'] & 0177) !== 0) {
            \fclose($server);
            throw new ControlError(\sprintf('Cannot create the control socket %s: it is not a private socket once bound', $path));
        }
        \stream_set_blocking($server, false);
        $this->server = $server;
        $this->ownerPid = \posix_getpid();
        $this->inode = $stat['ino'];
    }

    public function __destruct()
    {
        $this->close();
    }

    public function path(): string
    {
        return $this->path;
    }

    /**
     * The streams to watch for reading: the listening socket and the connections still
     * sending a request. Connections waiting for reply() are not included.
     *
     * @return list<resource>
     */
    public function streams(): array
    {
        if ($this->server === null) {
            return [];
        }
        $streams = [$this->server];
        foreach ($this->reading as $client) {
            $streams[] = $client['stream'];
        }

        return $streams;
    }

    /**
     * Accepts new connections and reads from the readable ones; returns the requests that are
     * complete. Also drops connections whose request did not arrive in time.
     *
     * @param array<array-key, mixed> $readable the read set as stream_select() left it (other streams are ignored)
     *
     * @return list<ControlRequest>
     */
    public function poll(array $readable): array
    {
        if ($this->server === null) {
            return [];
        }
        $now = \microtime(true);
        if (\in_array($this->server, $readable, true)) {
            $this->accept($this->server, $now);
        }
        $requests = [];
        foreach ($this->reading as $id => $client) {
            if (\in_array($client['stream'], $readable, true)) {
                $request = $this->read($id, $client['stream']);
                if ($request !== null) {
                    $requests[] = $request;
                }
            }
        }
        foreach ($this->reading as $id => $client) {
            if ($client['deadline'] <= $now) {
                unset($this->reading[$id]);
                $this->send($client['stream'], [
                    'ok' => false,
                    'error' => \sprintf('no complete request within %s s', \round($this->idleTimeout, 3)),
                ]);
            }
        }

        return $requests;
    }

    /**
     * Sends the answer to a request and closes its connection. "ok" defaults to true. A client
     * that went away meanwhile is ignored.
     *
     * @param array<array-key, mixed> $response
     */
    public function reply(ControlRequest $request, array $response): void
    {
        $stream = $this->waiting[$request->clientId] ?? null;
        if ($stream === null) {
            return;
        }
        unset($this->waiting[$request->clientId]);
        $this->send($stream, \array_replace(['ok' => true], $response));
    }

    /**
     * Closes the listening socket and every connection, and removes the socket file. In a
     * forked child only the inherited descriptors are closed: the file belongs to the master.
     */
    public function close(): void
    {
        if ($this->server === null) {
            return;
        }
        $owner = \posix_getpid() === $this->ownerPid;
        foreach ($this->reading as $client) {
            @\fclose($client['stream']);
        }
        foreach ($this->waiting as $stream) {
            @\fclose($stream);
        }
        $this->reading = $this->waiting = [];
        @\fclose($this->server);
        $this->server = null;
        if ($owner) {
            // Only the file this server created: never one a later master put at the same path.
            \clearstatcache(true, $this->path);
            if (@\filetype($this->path) === 'socket' && @\fileinode($this->path) === $this->inode) {
                @\unlink($this->path);
            }
        }
    }

    /** A socket file nobody listens on is left over by a master that died; anything else stays. */
    private function removeStaleSocket(): void
    {
        \clearstatcache(true, $this->path);
        if (!\file_exists($this->path) && !\is_link($this->path)) {
            return;
        }
        if (@\filetype($this->path) !== 'socket') {
            throw new ControlError(\sprintf('Cannot create the control socket %s: the path exists and is not a socket', $this->path));
        }
        $probe = @\stream_socket_client('unix://' . $this->path, $errno, $error, 1.0);
        if ($probe !== false) {
            \fclose($probe);
            throw new ControlError(\sprintf('Another Spindle master is running at %s', $this->path));
        }
        if ($errno !== self::ECONNREFUSED) {
            throw new ControlError(\sprintf('Cannot check the existing control socket %s: %s', $this->path, $error));
        }
        if (!@\unlink($this->path)) {
            throw new ControlError(\sprintf('Cannot remove the stale control socket %s', $this->path));
        }
    }

    /** @param resource $server */
    private function accept(mixed $server, float $now): void
    {
        // A bounded batch per call, so a flood of connections cannot starve the master's loop.
        for ($i = 0; $i < $this->maxClients; ++$i) {
            $stream = @\stream_socket_accept($server, 0);
            if ($stream === false) {
                return;
            }
            if (\count($this->reading) + \count($this->waiting) >= $this->maxClients) {
                $this->send($stream, ['ok' => false, 'error' => 'too many control connections']);
                continue;
            }
            \stream_set_blocking($stream, false);
            $this->reading[$this->nextClientId++] = ['stream' => $stream, 'buffer' => '', 'deadline' => $now + $this->idleTimeout];
        }
    }

    /** @param resource $stream */
    private function read(int $id, mixed $stream): ?ControlRequest
    {
        $buffer = $this->reading[$id]['buffer'];
        $data = @\fread($stream, \max(1, self::MAX_REQUEST_BYTES + 1 - \strlen($buffer)));
        $closed = $data === false || ($data === '' && \feof($stream));
        $buffer .= \is_string($data) ? $data : '';
        $end = \strpos($buffer, "\n");
        if ($end === false && !$closed) {
            if (\strlen($buffer) > self::MAX_REQUEST_BYTES) {
                unset($this->reading[$id]);
                $this->send($stream, ['ok' => false, 'error' => \sprintf('request larger than %d bytes', self::MAX_REQUEST_BYTES)]);
            } else {
                $this->reading[$id]['buffer'] = $buffer;
            }

            return null;
        }
        unset($this->reading[$id]);
        if ($end === false && \trim($buffer) === '') {
            @\fclose($stream);

            return null;
        }
        // A client that half-closed after its request without a newline still gets its answer.
        $line = $end === false ? $buffer : \substr($buffer, 0, $end);
        if (\strlen($line) > self::MAX_REQUEST_BYTES) {
            $this->send($stream, ['ok' => false, 'error' => \sprintf('request larger than %d bytes', self::MAX_REQUEST_BYTES)]);

            return null;
        }
        $request = $this->parse($line, $id);
        if (\is_string($request)) {
            $this->send($stream, ['ok' => false, 'error' => $request]);

            return null;
        }
        $this->waiting[$id] = $stream;

        return $request;
    }

    /** @return ControlRequest|string the request, or why it is rejected */
    private function parse(string $line, int $id): ControlRequest|string
    {
        try {
            $data = \json_decode($line, true, 64, \JSON_THROW_ON_ERROR);
        } catch (\JsonException $e) {
            return 'invalid JSON: ' . $e->getMessage();
        }
        if (!\is_array($data) || ($data !== [] && \array_is_list($data))) {
            return 'the request must be a JSON object';
        }
        $command = $data['command'] ?? null;
        if (!\is_string($command)) {
            return 'the request has no "command"';
        }
        if (!\in_array($command, ControlRequest::COMMANDS, true)) {
            return \sprintf('unknown command "%s"; expected one of: %s', $command, \implode(', ', ControlRequest::COMMANDS));
        }
        $arguments = $data['arguments'] ?? [];
        if (!\is_array($arguments)) {
            return '"arguments" must be a JSON object';
        }

        return new ControlRequest($command, $arguments, $id);
    }

    /**
     * Writes one JSON line and closes the connection. Replies are small: the write normally
     * completes at once, and a client that does not read is given up on after REPLY_TIMEOUT.
     *
     * @param resource $stream
     * @param array<array-key, mixed> $response
     */
    private function send(mixed $stream, array $response): void
    {
        try {
            $json = \json_encode($response, \JSON_THROW_ON_ERROR | \JSON_UNESCAPED_SLASHES | \JSON_INVALID_UTF8_SUBSTITUTE);
        } catch (\JsonException $e) {
            $json = \json_encode(['ok' => false, 'error' => 'the reply could not be encoded: ' . $e->getMessage()], \JSON_INVALID_UTF8_SUBSTITUTE);
        }
        $data = $json . "\n";
        $deadline = \microtime(true) + self::REPLY_TIMEOUT;
        \stream_set_blocking($stream, false);
        while (true) {
            $written = @\fwrite($stream, $data);
            if ($written === false) {
                break;
            }
            $data = (string) \substr($data, $written);
            if ($data === '') {
                break;
            }
            $left = $deadline - \microtime(true);
            if ($left <= 0) {
                break;
            }
            $read = $except = null;
            $write = [$stream];
            if (@\stream_select($read, $write, $except, 0, (int) ($left * 1_000_000)) === false) {
                break;
            }
        }
        @\fclose($stream);
    }
}
