<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Spindle\Supervisor\ControlClient;
use Spindle\Supervisor\ControlError;
use Spindle\Supervisor\ControlRequest;
use Spindle\Supervisor\ControlServer;

/**
 * The control socket, driven the way the master drives it: stream_select() on streams(), then
 * poll() and reply(). ControlClient blocks, so it runs in a child PHP process.
 */
final class ControlServerTest extends TestCase
{
    private string $directory;
    private string $socket;

    protected function setUp(): void
    {
        $this->directory = \sys_get_temp_dir() . '/spindle-ctl-' . \bin2hex(\random_bytes(4));
        \mkdir($this->directory);
        $this->socket = $this->directory . '/master.sock';
    }

    protected function tearDown(): void
    {
        foreach (\glob($this->directory . '/{,.}*', \GLOB_BRACE) ?: [] as $file) {
            if (\is_file($file) || \is_link($file) || \filetype($file) === 'socket') {
                \unlink($file);
            }
        }
        \rmdir($this->directory);
    }

    public function testRoundTripWithControlClient(): void
    {
        $server = new ControlServer($this->socket);
        self::assertSame(0600, \fileperms($this->socket) & 0777);

        $client = $this->startClient('status', ['verbose' => true]);
        $received = [];
        $output = $this->serveUntilExit($server, $client, static function (ControlRequest $request) use (&$received): array {
            $received[] = $request;

            return ['workers' => 4, 'echo' => $request->arguments];
        });

        self::assertCount(1, $received);
        self::assertSame('status', $received[0]->command);
        self::assertSame(['verbose' => true], $received[0]->arguments);
        self::assertSame(['reply' => ['ok' => true, 'workers' => 4, 'echo' => ['verbose' => true]]], $output);

        $server->close();
        self::assertFileDoesNotExist($this->socket);
        self::assertSame([], $server->streams());
    }

    public function testErrorRepliesReachTheClientAsData(): void
    {
        $server = new ControlServer($this->socket);
        $client = $this->startClient('stop', []);
        $output = $this->serveUntilExit($server, $client, static fn (ControlRequest $request): array => ['ok' => false, 'error' => 'already stopping']);

        self::assertSame(['reply' => ['ok' => false, 'error' => 'already stopping']], $output);
    }

    public function testSecondServerOnALivePathIsRefused(): void
    {
        $server = new ControlServer($this->socket);
        try {
            new ControlServer($this->socket);
            self::fail('A second server was created on a live socket');
        } catch (ControlError $e) {
            self::assertStringContainsString('Another Spindle master is running at ' . $this->socket, $e->getMessage());
        }
        self::assertSame('socket', \filetype($this->socket));

        // The first server still serves.
        $output = $this->serveUntilExit($server, $this->startClient('reload', []), static fn (): array => ['reloading' => true]);
        self::assertSame(['reply' => ['ok' => true, 'reloading' => true]], $output);
    }

    public function testStaleSocketFileIsReplaced(): void
    {
        // A master that died leaves its socket file behind.
        $dead = \stream_socket_server('unix://' . $this->socket);
        self::assertIsResource($dead);
        \fclose($dead);
        self::assertSame('socket', \filetype($this->socket));

        $server = new ControlServer($this->socket);
        $output = $this->serveUntilExit($server, $this->startClient('status', []), static fn (): array => []);
        self::assertSame(['reply' => ['ok' => true]], $output);
    }

    public function testAFileThatIsNotASocketIsLeftAlone(): void
    {
        \file_put_contents($this->socket, 'data');
        try {
            new ControlServer($this->socket);
            self::fail('The server replaced a regular file');
        } catch (ControlError $e) {
            self::assertStringContainsString('is not a socket', $e->getMessage());
        }
        self::assertSame('data', \file_get_contents($this->socket));
    }

    public function testTooLongPathIsRefused(): void
    {
        $this->expectException(ControlError::class);
        $this->expectExceptionMessage('unix socket path');
        new ControlServer($this->directory . '/' . \str_repeat('s', 120) . '.sock');
    }

    public function testBadRequestsGetAnErrorReplyAndAreNotReturned(): void
    {
        $server = new ControlServer($this->socket);
        $cases = [
            "{not json\n" => 'invalid JSON',
            "[1,2]\n" => 'must be a JSON object',
            "{\"arguments\":{}}\n" => 'no "command"',
            "{\"command\":\"explode\"}\n" => 'unknown command "explode"; expected one of: status, stop, reload',
            "{\"command\":\"status\",\"arguments\":5}\n" => '"arguments" must be a JSON object',
            \str_repeat('x', ControlServer::MAX_REQUEST_BYTES + 1) => 'request larger than 65536 bytes',
        ];
        foreach ($cases as $request => $error) {
            [$reply, $requests] = $this->rawExchange($server, $request);
            self::assertSame([], $requests, $error);
            self::assertSame(['ok' => false], \array_intersect_key($reply, ['ok' => true]), $error);
            self::assertIsString($reply['error']);
            self::assertStringContainsString($error, $reply['error']);
        }
    }

    public function testSilentClientIsDropped(): void
    {
        $server = new ControlServer($this->socket, idleTimeout: 0.2);
        $started = \microtime(true);
        [$reply, $requests] = $this->rawExchange($server, '');
        self::assertSame([], $requests);
        self::assertFalse($reply['ok']);
        self::assertStringContainsString('no complete request within 0.2 s', (string) $reply['error']);
        self::assertGreaterThanOrEqual(0.2, \microtime(true) - $started);
    }

    public function testRequestWithoutNewlineBeforeHalfCloseIsAccepted(): void
    {
        $server = new ControlServer($this->socket);
        $client = $this->connect();
        \fwrite($client, '{"command":"status"}');
        \stream_socket_shutdown($client, \STREAM_SHUT_WR);
        $requests = $this->pollUntilRequests($server);
        self::assertSame('status', $requests[0]->command);
        self::assertSame([], $requests[0]->arguments);
        $server->reply($requests[0], ['pid' => 12]);
        self::assertSame('{"ok":true,"pid":12}' . "\n", \stream_get_contents($client));
    }

    public function testReplyToAClientThatLeftIsHarmless(): void
    {
        $server = new ControlServer($this->socket);
        $client = $this->connect();
        \fwrite($client, "{\"command\":\"stop\"}\n");
        $requests = $this->pollUntilRequests($server);
        \fclose($client);
        $server->reply($requests[0], ['stopping' => true]);
        $server->reply($requests[0], ['stopping' => true]);
        self::assertCount(1, $server->streams());
    }

    public function testForkedChildClosesWithoutRemovingTheSocket(): void
    {
        $server = new ControlServer($this->socket);
        $pid = \pcntl_fork();
        self::assertNotSame(-1, $pid);
        if ($pid === 0) {
            $server->close();
            // Leave without PHPUnit's shutdown in the copy of the test process.
            \posix_kill(\posix_getpid(), \SIGKILL);
        }
        \pcntl_waitpid($pid, $status);
        self::assertSame('socket', \filetype($this->socket));
        $output = $this->serveUntilExit($server, $this->startClient('status', []), static fn (): array => ['alive' => true]);
        self::assertSame(['reply' => ['ok' => true, 'alive' => true]], $output);
    }

    public function testClientErrors(): void
    {
        try {
            (new ControlClient())->send($this->socket, 'status');
            self::fail('No error without a socket');
        } catch (ControlError $e) {
            self::assertStringContainsString('No Spindle server is running: the control socket ' . $this->socket . ' does not exist', $e->getMessage());
        }

        $dead = \stream_socket_server('unix://' . $this->socket);
        self::assertIsResource($dead);
        \fclose($dead);
        try {
            (new ControlClient())->send($this->socket, 'status');
            self::fail('No error on a stale socket');
        } catch (ControlError $e) {
            self::assertStringContainsString('is stale: no Spindle master is listening', $e->getMessage());
        }
        \unlink($this->socket);

        // A server that accepts the connection (the backlog does) but never answers.
        // The error names the client's own limit: it gave up instead of waiting forever (no
        // bound on the elapsed time: a loaded machine can stretch it).
        $silent = new ControlServer($this->socket);
        try {
            (new ControlClient())->send($this->socket, 'status', [], 0.3);
            self::fail('No error on timeout');
        } catch (ControlError $e) {
            self::assertStringContainsString('No reply from the Spindle master on ' . $this->socket . ' within 0.3 s', $e->getMessage());
        }
        $silent->close();
    }

    /**
     * Only a socket of this user or root is trusted: a socket another user created (at a path
     * in a shared directory) or a symlink to a socket gets no request. The listener here would
     * answer; the client must not even connect.
     */
    public function testClientRefusesASocketOfAnotherUserOrASymlink(): void
    {
        $listener = \stream_socket_server('unix://' . $this->socket);
        self::assertIsResource($listener);
        try {
            $link = $this->directory . '/link.sock';
            \symlink($this->socket, $link);
            try {
                (new ControlClient())->send($link, 'status', [], 1.0);
                self::fail('A symlink to a socket was trusted');
            } catch (ControlError $e) {
                self::assertSame(\sprintf('Refusing the control socket %s: it is a symbolic link, not a socket', $link), $e->getMessage());
            }
            \unlink($link);
            if (\posix_geteuid() !== 0) {
                self::markTestIncomplete('Not root: a socket of another user cannot be made here (the E2E test makes one with another local user)');
            }
            $other = 65534;   // nobody
            self::assertTrue(\chown($this->socket, $other));
            try {
                (new ControlClient())->send($this->socket, 'status', [], 1.0);
                self::fail('A socket of another user was trusted');
            } catch (ControlError $e) {
                self::assertStringStartsWith(\sprintf('Refusing the control socket %s: it belongs to ', $this->socket), $e->getMessage());
                self::assertStringContainsString('(uid 65534), not to you, ', $e->getMessage());
                self::assertStringEndsWith('(uid 0), or to root. Run the command as the user that runs the server', $e->getMessage());
            }
            $accepted = @\stream_socket_accept($listener, 0);
            self::assertFalse($accepted, 'the client connected');
        } finally {
            \fclose($listener);
        }
    }

    public function testClientRejectsAMalformedReply(): void
    {
        $script = $this->directory . '/liar.php';
        \file_put_contents($script, <<<'PHP'
            <?php
            $server = stream_socket_server('unix://' . $argv[1]);
            $client = stream_socket_accept($server, 5);
            fgets($client);
            fwrite($client, "this is not json\n");
            fclose($client);
            PHP);
        $process = \proc_open([\PHP_BINARY, $script, $this->socket], [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        self::assertIsResource($process);
        $deadline = \microtime(true) + 5;
        while (@\filetype($this->socket) !== 'socket' && \microtime(true) < $deadline) {
            \usleep(10_000);
            \clearstatcache();
        }
        try {
            (new ControlClient())->send($this->socket, 'status', [], 5.0);
            self::fail('A malformed reply was accepted');
        } catch (ControlError $e) {
            self::assertStringContainsString('Malformed reply from the Spindle master on ' . $this->socket, $e->getMessage());
        } finally {
            \proc_close($process);
        }
    }

    /**
     * Starts ControlClient::send() in a child process; it prints {"reply":…} or {"error":…}.
     *
     * @param array<string, mixed> $arguments
     *
     * @return resource
     */
    private function startClient(string $command, array $arguments): mixed
    {
        $script = $this->directory . '/client.php';
        \file_put_contents($script, \sprintf(<<<'PHP'
            <?php
            require %s;
            try {
                $reply = (new \Spindle\Supervisor\ControlClient())->send($argv[1], $argv[2], json_decode($argv[3], true), 5.0);
                echo json_encode(['reply' => $reply]);
            } catch (\Spindle\Supervisor\ControlError $e) {
                echo json_encode(['error' => $e->getMessage()]);
            }
            PHP, \var_export(\dirname(__DIR__, 3) . '/vendor/autoload.php', true)));
        $process = \proc_open(
            [\PHP_BINARY, $script, $this->socket, $command, \json_encode($arguments, \JSON_THROW_ON_ERROR)],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $this->directory . '/client.out', 'w'], 2 => ['file', $this->directory . '/client.err', 'w']],
            $pipes,
        );
        self::assertIsResource($process);

        return $process;
    }

    /**
     * The master's loop in miniature, until the client process exits (at most 5 s).
     *
     * @param resource $client
     * @param callable(ControlRequest): array<string, mixed> $handle
     *
     * @return array<array-key, mixed> what the client printed
     */
    private function serveUntilExit(ControlServer $server, mixed $client, callable $handle): array
    {
        $deadline = \microtime(true) + 5;
        while (\proc_get_status($client)['running']) {
            self::assertLessThan($deadline, \microtime(true), 'The client did not finish');
            $read = $server->streams();
            $write = $except = null;
            @\stream_select($read, $write, $except, 0, 50_000);
            foreach ($server->poll($read) as $request) {
                $server->reply($request, $handle($request));
            }
        }
        \proc_close($client);
        $output = (string) \file_get_contents($this->directory . '/client.out');
        self::assertSame('', \file_get_contents($this->directory . '/client.err'));
        $decoded = \json_decode($output, true);
        self::assertIsArray($decoded, $output);

        return $decoded;
    }

    /** @return resource */
    private function connect(): mixed
    {
        $client = \stream_socket_client('unix://' . $this->socket, $errno, $error, 1.0);
        self::assertIsResource($client, (string) $error);

        return $client;
    }

    /** @return non-empty-list<ControlRequest> */
    private function pollUntilRequests(ControlServer $server): array
    {
        $deadline = \microtime(true) + 5;
        while (\microtime(true) < $deadline) {
            $read = $server->streams();
            $write = $except = null;
            @\stream_select($read, $write, $except, 0, 50_000);
            $requests = $server->poll($read);
            if ($requests !== []) {
                return $requests;
            }
        }
        self::fail('No request arrived');
    }

    /**
     * Sends raw bytes on a new connection and polls the server until the connection is answered.
     *
     * @return array{0: array<array-key, mixed>, 1: list<ControlRequest>} the reply and what poll() returned
     */
    private function rawExchange(ControlServer $server, string $bytes): array
    {
        $client = $this->connect();
        if ($bytes !== '') {
            \fwrite($client, $bytes);
        }
        \stream_set_blocking($client, false);
        $requests = [];
        $answer = '';
        $deadline = \microtime(true) + 5;
        while (!\str_ends_with($answer, "\n")) {
            self::assertLessThan($deadline, \microtime(true), 'No reply');
            $read = $server->streams();
            $write = $except = null;
            @\stream_select($read, $write, $except, 0, 20_000);
            \array_push($requests, ...$server->poll($read));
            $answer .= (string) \fread($client, 65536);
        }
        \fclose($client);
        $reply = \json_decode($answer, true);
        self::assertIsArray($reply, $answer);

        return [$reply, $requests];
    }
}
