<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\RawResponse;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * A request that ends its worker's process (exit(), die, a fatal error) costs that request only:
 * it is answered as PHP-FPM would answer it, the other requests in flight on the worker finish,
 * new connections go to the replacement, which starts at once (no back-off), and the temporary
 * files of a worker that is gone are removed by the master.
 *
 * @group slow
 */
final class RequestExitTest extends E2ETestCase
{
    private const SLOW = 10;

    /** @var list<ServerProcess> */
    private array $servers = [];
    /** @var list<string> */
    private array $directories = [];

    protected function tearDown(): void
    {
        foreach ($this->servers as $server) {
            $server->stop();
        }
        $this->servers = [];
        foreach ($this->directories as $directory) {
            self::removeTree($directory);
        }
        $this->directories = [];
        \putenv('SPINDLE_TEST_BOOT_FLAG');
    }

    /** @return iterable<string, array{string, int, list<string>}> */
    public static function endings(): iterable
    {
        yield 'exit()' => ['/exit', 200, []];
        yield 'memory exhaustion' => ['/fatal', 500, []];
        yield 'memory exhaustion, epoll loop' => ['/fatal', 500, ['--event-loop=epoll']];
    }

    /**
     * @dataProvider endings
     *
     * @param list<string> $options
     */
    public function testTheOtherRequestsInFlightAreAnswered(string $path, int $status, array $options): void
    {
        $server = $this->serve($options);
        $old = $server->workerPids();
        self::assertCount(1, $old);
        $slow = $this->slowRequests($server);

        $client = new RawClient($server->port(), 10.0);
        $client->send(self::get($path));
        $ended = $client->readResponse();
        $next = $this->timedRequest($server, '/next');

        self::assertSame($status, $ended->status, $ended->raw);
        self::assertSame('close', $ended->header('connection'));
        self::assertTrue($client->waitForClose(5.0), 'the connection of the request that ended the process is closed');
        if ($status === 500) {
            self::assertSame("Internal Server Error\n", $ended->body, 'no details without --debug');
            self::assertTrue($server->waitForLog('GET /fatal ended the worker process with a fatal error (Allowed memory size', 5.0), $server->stderr());
        } else {
            self::assertSame('', $ended->body);
            self::assertTrue($server->waitForLog('GET /exit ended the worker process with exit()', 5.0), $server->stderr());
        }

        $answered = 0;
        foreach ($slow as $id => $slowClient) {
            $response = $slowClient->readResponse(timeout: 20.0);
            self::assertSame(200, $response->status, $response->raw);
            self::assertSame(['id' => (string) $id, 'pid' => $old[0]], $response->json());
            ++$answered;
        }
        self::assertSame(self::SLOW, $answered);

        // The next request went to the replacement while the old worker still drained.
        self::assertSame(200, $next['response']->status, $next['response']->raw);
        self::assertNotSame($old[0], $next['response']->json()['pid']);
        self::assertTrue($server->waitForLog("Worker {$old[0]} finished its other requests and exited", 10.0), $server->stderr());
        self::assertStringNotContainsString('restarting it', $server->stderr());
        self::assertServerAnswers($server, '/after');
        self::reportFigures($path, \sprintf('%d/%d in-flight requests answered; the next request took %.0f ms', $answered, self::SLOW, $next['seconds'] * 1000));
    }

    /**
     * What PHP does not allow: an exit() inside the shutdown function that drains ends PHP's
     * shutdown for good, so a second request that ends the process during the drain is not
     * answered and cuts the requests still in flight. The replacement serves meanwhile, and the
     * master says so.
     */
    public function testASecondExitDuringTheDrainCutsTheRequestsStillInFlight(): void
    {
        $server = $this->serve();
        [$old] = $server->workerPids();
        $later = new RawClient($server->port(), 20.0);
        $later->send(self::get('/exit-later?s=1'));
        self::assertTrue($server->waitForLog("exits-app started later\n", 10.0), $server->stderr());
        $slow = $this->slowRequests($server, 4.0);

        self::assertSame(200, self::rawRequest($server, self::get('/exit'))->status);
        foreach ([$later, ...$slow] as $client) {
            self::assertTrue($client->waitForClose(20.0));
            self::assertSame('', $client->buffered(), 'cut without an answer');
        }
        self::assertTrue($server->waitForLog("Worker {$old} exited with status 0 before its other requests finished", 10.0), $server->stderr());
        self::assertServerAnswers($server, '/after');
    }

    public function testAnExitingRequestGetsWhatItPrintedWithItsStatus(): void
    {
        $server = $this->serve();

        $response = self::rawRequest($server, self::get('/die-after-output'));
        self::assertSame(403, $response->status, 'the code it set with http_response_code()');
        self::assertSame("printed before die\nstill in a buffer\n", $response->body, 'what it printed, then what its buffer held');
        self::assertSame('text/html; charset=UTF-8', $response->header('content-type'));

        $response = self::rawRequest($server, self::get('/exit-message'));
        self::assertSame(200, $response->status);
        self::assertSame('goodbye', $response->body);

        // A request that empties the whole output stack does not end the recording.
        self::assertSame('cleared', self::rawRequest($server, self::get('/clear-buffers'))->body);
        $response = self::rawRequest($server, self::get('/die-after-output'));
        self::assertSame(403, $response->status);
        self::assertSame("printed before die\nstill in a buffer\n", $response->body);
        self::assertServerAnswers($server, '/after');
    }

    public function testAResponseThatHadBegunIsCut(): void
    {
        $server = $this->serve();
        $client = new RawClient($server->port(), 10.0);
        $client->send(self::get('/stream-exit'));
        self::assertTrue($client->waitForClose(10.0), 'the connection is closed');
        self::assertStringStartsWith('HTTP/1.1 200 OK', $client->buffered());
        self::assertStringContainsString('first piece', $client->buffered());
        self::assertStringNotContainsString("\r\n0\r\n\r\n", $client->buffered(), 'no end: the client sees it was cut');
        self::assertTrue($server->waitForLog('GET /stream-exit ended the worker process with exit(): its connection was closed (its response had begun)', 5.0), $server->stderr());
        self::assertServerAnswers($server, '/after');
    }

    public function testTheAccessLogHasTheRequestThatEndedTheProcess(): void
    {
        $log = $this->temporaryDirectory() . '/access.log';
        $server = $this->serve(['--access-log=' . $log]);
        $died = self::rawRequest($server, self::get('/die-after-output'));
        self::assertSame(403, $died->status);
        self::assertMatchesRegularExpression('/^\S+$/', (string) $died->header('x-request-id'), 'the answer carries the id its request was given');
        self::assertSame(500, self::rawRequest($server, self::get('/fatal'))->status);
        $logged = self::eventually(static function () use ($log): bool {
            $lines = (string) @\file_get_contents($log);

            return \str_contains($lines, '"GET /die-after-output HTTP/1.1" 403 37 ')
                && \str_contains($lines, '"GET /fatal HTTP/1.1" 500 22 ');
        }, 10.0);
        self::assertTrue($logged, (string) @\file_get_contents($log));
    }

    public function testAFatalErrorShowsItsMessageWithDebugOnly(): void
    {
        $server = $this->serve(['--debug']);
        $response = self::rawRequest($server, self::get('/fatal'));
        self::assertSame(500, $response->status);
        self::assertStringContainsString('Allowed memory size of 67108864 bytes exhausted', $response->body);
        self::assertServerAnswers($server, '/after');
    }

    public function testRepeatedExitsAreReplacedAtOnceWithoutBackOff(): void
    {
        $server = $this->serve();
        $pids = [];
        $slowest = 0.0;
        for ($i = 0; $i < 8; ++$i) {
            $ended = self::rawRequest($server, self::get('/exit'));
            self::assertSame(200, $ended->status);
            $next = $this->timedRequest($server, '/next');
            self::assertSame(200, $next['response']->status, $next['response']->raw);
            $pids[] = $next['response']->json()['pid'];
            $slowest = \max($slowest, $next['seconds']);
        }
        self::assertCount(8, \array_unique($pids), 'each exit gave a new worker');
        self::assertStringNotContainsString('restarting it in', $server->stderr());
        self::reportFigures('8 exits in a row', \sprintf('slowest request after an exit: %.0f ms', $slowest * 1000));
    }

    public function testAReplacementThatFailsToBootStillBacksOff(): void
    {
        $flag = $this->temporaryDirectory() . '/do-not-boot';
        \putenv('SPINDLE_TEST_BOOT_FLAG=' . $flag);
        $server = $this->serve();
        \touch($flag);

        self::assertSame(200, self::rawRequest($server, self::get('/exit'))->status);
        self::assertTrue($server->waitForLog('exits-app told not to boot; retrying in 0.5 s', 10.0), $server->stderr());
        self::assertTrue($server->waitForLog('exits-app told not to boot; retrying in 1.0 s', 10.0), $server->stderr());
        \unlink($flag);

        $client = new RawClient($server->port(), 20.0);
        $client->send(self::get('/back', "Connection: close\r\n"));
        self::assertSame(200, $client->readResponse(timeout: 20.0)->status, $server->stderr());
    }

    public function testTheUploadsOfAKilledWorkerAreRemoved(): void
    {
        $uploads = $this->temporaryDirectory();
        $server = $this->serve(['--upload-dir=' . $uploads]);
        [$worker] = $server->workerPids();

        $boundary = 'exitBoundary' . \bin2hex(\random_bytes(4));
        $body = "--{$boundary}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n"
            . "Content-Type: application/octet-stream\r\n\r\n" . \str_repeat('a', 300000) . "\r\n--{$boundary}--\r\n";
        $client = new RawClient($server->port());
        $client->send("POST /slow HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary={$boundary}\r\n"
            . 'Content-Length: ' . \strlen($body) . "\r\n\r\n" . \substr($body, 0, 150000));
        self::assertTrue(self::eventually(static fn (): bool => self::uploadFiles($uploads) !== [], 5.0), 'the upload is being written');
        self::assertCount(1, \glob($uploads . '/spindle-worker-*') ?: [], 'the worker has a directory of its own');

        \posix_kill($worker, \SIGKILL);
        self::assertTrue(
            self::eventually(static fn (): bool => self::uploadFiles($uploads) === [], 5.0),
            'the killed worker\'s upload was left behind: ' . \implode(', ', self::uploadFiles($uploads)),
        );
        self::assertTrue($server->waitForLog("Removed 1 temporary file worker {$worker} left behind", 5.0), $server->stderr());
        self::assertServerAnswers($server, '/after');

        // An upload whose request calls exit() is removed like any other.
        $response = self::rawRequest($server, "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary={$boundary}\r\n"
            . 'Content-Length: ' . \strlen($body) . "\r\n\r\n" . $body);
        self::assertSame(200, $response->status);
        self::assertStringStartsWith($uploads . '/spindle-worker-', $response->body);
        self::assertTrue(self::eventually(static fn (): bool => !\file_exists($response->body), 5.0));

        $server->stop();
        self::assertSame([], \glob($uploads . '/*') ?: [], 'the master removes its workers\' directories when it stops');
    }

    /**
     * Starts SLOW requests to /slow?s=$seconds and waits until each runs in the worker.
     *
     * @return array<int, RawClient> by id
     */
    private function slowRequests(ServerProcess $server, float $seconds = 2.0): array
    {
        $clients = [];
        for ($id = 1; $id <= self::SLOW; ++$id) {
            $clients[$id] = new RawClient($server->port(), 20.0);
            $clients[$id]->send(self::get('/slow?s=' . $seconds . '&id=' . $id, "Connection: close\r\n"));
        }
        $started = self::eventually(static function () use ($server): bool {
            $log = $server->stderr();
            for ($id = 1; $id <= self::SLOW; ++$id) {
                if (!\str_contains($log, "exits-app started {$id}\n")) {
                    return false;
                }
            }

            return true;
        }, 10.0);
        self::assertTrue($started, 'the slow requests did not all start: ' . $server->stderr());

        return $clients;
    }

    /** @return array{response: RawResponse, seconds: float} */
    private function timedRequest(ServerProcess $server, string $path): array
    {
        $start = \microtime(true);
        $client = new RawClient($server->port(), 20.0);
        $client->send(self::get($path, "Connection: close\r\n"));
        $response = $client->readResponse(timeout: 20.0);

        return ['response' => $response, 'seconds' => \microtime(true) - $start];
    }

    /** @param list<string> $options */
    private function serve(array $options = []): ServerProcess
    {
        return $this->servers[] = ServerProcess::start(ServerProcess::fixture('exits.php'), ['--workers=1', ...$options]);
    }

    /** @return list<string> the files in the workers' directories under $uploads */
    private static function uploadFiles(string $uploads): array
    {
        return \glob($uploads . '/spindle-worker-*/*') ?: [];
    }

    private function temporaryDirectory(): string
    {
        $directory = \sys_get_temp_dir() . '/spindle-exit-' . \bin2hex(\random_bytes(6));
        self::assertTrue(\mkdir($directory, 0700));

        return $this->directories[] = $directory;
    }
}
