<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\PublicDirectory;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;
use Spindle\Tests\E2E\Support\SymfonyFixtureTestCase;

/**
 * `APP_RUNTIME=Spindle\Bridge\Symfony\Runtime php public/index.php`: the fixture's unmodified
 * front controller starts a Spindle server, configured from SPINDLE_* variables.
 *
 * @group frameworks
 */
class SymfonyRuntimeTest extends SymfonyFixtureTestCase
{
    /** @var resource|null */
    private $process = null;
    /** @var resource|null */
    private $stdout = null;
    private string $stderrFile = '';

    protected function tearDown(): void
    {
        if (\is_resource($this->process)) {
            $status = \proc_get_status($this->process);
            if ($status['running']) {
                \posix_kill($status['pid'], \SIGTERM);
                $deadline = \microtime(true) + 10.0;
                while (\proc_get_status($this->process)['running'] && \microtime(true) < $deadline) {
                    \usleep(10000);
                }
            }
            if (\is_resource($this->stdout)) {
                \fclose($this->stdout);
            }
            \proc_close($this->process);
        }
        if ($this->stderrFile !== '') {
            @\unlink($this->stderrFile);
        }
        PublicDirectory::removeUploads(static::app() . '/public');
    }

    public function testFrontControllerStartsAServer(): void
    {
        $port = $this->start(['SPINDLE_PORT' => '0', 'SPINDLE_WORKERS' => '1']);

        $hello = self::parseCurlResponse(self::curl(['-s', '-i', "http://127.0.0.1:{$port}/hello"])['out']);
        self::assertSame(200, $hello['status']);
        self::assertSame('Hello World', $hello['body']);

        $user = self::curl(['-s', "http://127.0.0.1:{$port}/users/2"]);
        self::assertSame(['id' => 2] + self::USERS[2], \json_decode($user['out'], true));

        $error = self::parseCurlResponse(self::curl(['-s', '-i', "http://127.0.0.1:{$port}/boom"])['out']);
        self::assertSame(500, $error['status']);
        self::assertStringNotContainsString('s3cr3t-in-exception', $error['body']);
        self::assertStringContainsString('Booting the Symfony app', (string) \file_get_contents($this->stderrFile));
    }

    /** DoctrineBundle's connection (DBAL 3 on 5.4, DBAL 4 on 7.4) runs on Spindle's driver under the runtime as under `spindle serve`. */
    public function testTheRuntimesWorkersGiveDoctrineBundleSpindlesDriver(): void
    {
        $port = $this->start(['SPINDLE_PORT' => '0', 'SPINDLE_WORKERS' => '1']);

        $classes = \json_decode(self::curl(['-s', "http://127.0.0.1:{$port}/clients/classes"])['out'], true);
        self::assertIsArray($classes);
        self::assertSame('Spindle\Database\Pdo', $classes['pdo']);
        $sleep = \json_decode(self::curl(['-s', "http://127.0.0.1:{$port}/clients/sleep?seconds=0.01"])['out'], true);
        self::assertSame(['slept' => 0.01, 'result' => 0], $sleep);
    }

    /** As under `spindle serve <directory>`: public/ is served, never its index.php, and the workers run in it. */
    public function testThePublicDirectoryIsServedAndWorkedIn(): void
    {
        $port = $this->start(['SPINDLE_PORT' => '0', 'SPINDLE_WORKERS' => '1']);
        $public = static::app() . '/public';

        PublicDirectory::assertServesItsCss($port, $public);
        PublicDirectory::assertFrontControllerIsNotServed($port, $public);
        PublicDirectory::assertARelativeUploadIsServedBack($port, $public);
    }

    public function testConcurrencyFromTheEnvironmentLimitsTheKernelsOfAWorker(): void
    {
        $port = $this->start(['SPINDLE_PORT' => '0', 'SPINDLE_WORKERS' => '1', 'SPINDLE_CONCURRENCY' => '2']);
        $clients = [];
        for ($i = 0; $i < 4; ++$i) {
            $client = new RawClient($port);
            $client->send(self::get("/wait?ms=200&tag=t{$i}", "Connection: close\r\n"));
            $clients[$i] = $client;
        }
        $kernels = [];
        foreach ($clients as $i => $client) {
            $data = $client->readResponse(timeout: 10.0)->json();
            self::assertSame("t{$i}", $data['current']);
            $kernels[$data['kernel']] = true;
        }
        // Four requests at once, but never more than two kernels in the worker.
        self::assertCount(2, $kernels);
    }

    /**
     * Runs the front controller with APP_RUNTIME set and waits for the readiness line.
     *
     * @param array<string, string> $env
     */
    protected function start(array $env): int
    {
        $stderr = \tempnam(\sys_get_temp_dir(), 'spindle-e2e-runtime-');
        self::assertIsString($stderr);
        $this->stderrFile = $stderr;
        $environment = \getenv() + ['APP_RUNTIME' => 'Spindle\\Bridge\\Symfony\\Runtime'];
        $environment['APP_RUNTIME'] = 'Spindle\\Bridge\\Symfony\\Runtime';
        $process = \proc_open(
            [\PHP_BINARY, 'public/index.php'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', $stderr, 'w']],
            $pipes,
            static::app(),
            $env + $environment,
        );
        self::assertIsResource($process);
        $this->process = $process;
        $this->stdout = $pipes[1];
        \stream_set_blocking($this->stdout, false);
        $output = '';
        $deadline = \microtime(true) + ServerProcess::READY_TIMEOUT;
        while (\preg_match('#Spindle listening on http://127\.0\.0\.1:(\d+)\n#', $output, $m) !== 1) {
            $left = $deadline - \microtime(true);
            if ($left <= 0 || \feof($this->stdout)) {
                self::fail("The front controller did not start a server:\n{$output}\n" . \file_get_contents($stderr));
            }
            $read = [$this->stdout];
            $write = $except = null;
            if (@\stream_select($read, $write, $except, 0, (int) (\min($left, 0.5) * 1e6)) > 0) {
                $output .= (string) \fread($this->stdout, 8192);
            }
        }

        return (int) $m[1];
    }
}
