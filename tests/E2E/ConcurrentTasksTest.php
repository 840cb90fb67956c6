<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\RawClient;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Spindle\concurrently() in a real worker (tests/fixtures/apps/concurrent.php): results in order,
 * the first error with the others cancelled, each task's isolation, and real waits overlapping.
 */
final class ConcurrentTasksTest extends E2ETestCase
{
    private static function server(): ServerProcess
    {
        return self::sharedServer(ServerProcess::fixture('concurrent.php'), ['--workers=1']);
    }

    /** @return array<mixed> */
    private static function fetch(string $path): array
    {
        $response = self::rawRequest(self::server(), self::get($path, "Connection: close\r\n"));
        self::assertSame(200, $response->status, $response->raw);

        return $response->json();
    }

    public function testThreeOneSecondQueriesTakeAboutOneSecond(): void
    {
        self::fetch('/results');
        $data = self::fetch('/sleep?n=3');
        self::assertSame(['0:0', '1:0', '2:0'], $data['results']);
        // One after another they take 3 s; at the same time ≈ 1.1 s (connects included).
        // Generous for a loaded machine.
        self::assertLessThan(2.5, $data['elapsed']);
        \fwrite(\STDERR, \sprintf("\n[concurrently] 3 x SELECT SLEEP(1): %.3f s\n", $data['elapsed']));
    }

    public function testResultsComeInTheOrderOfTheTasksUnderTheirKeys(): void
    {
        $data = self::fetch('/results');
        self::assertSame(['slow', 'now', 'fast'], \array_keys($data['results']));
        self::assertSame(['slow' => 'slow', 'now' => 'now', 'fast' => ['fast', 1]], $data['results']);
        self::assertLessThan(2.0, $data['elapsed'], 'the waits overlap (0.2 s + 0.05 s)');
    }

    public function testTheFirstErrorIsRethrownAndTheWaitingTaskCancelled(): void
    {
        $data = self::fetch('/error');
        self::assertSame('DomainException: task 1 failed', $data['error']);
        self::assertStringStartsWith('cancelled: GET /error: cancelled, another task failed', $data['other']);
        self::assertLessThan(4.0, $data['elapsed'], 'the 5 s wait was cancelled, not waited out');
        self::assertServerAnswers(self::server(), '/results');
    }

    public function testTasksInheritTheRequestAndKeepTheirChangesToThemselves(): void
    {
        // Two requests at once: each one's tasks must see their own request (its time zone, its
        // context values, its "instance" put back on resume), never the other's.
        $server = self::server();
        $a = new RawClient($server->port());
        $b = new RawClient($server->port());
        $a->send(self::get('/isolation?zone=Asia/Tokyo&label=A', "Connection: close\r\n"));
        $b->send(self::get('/isolation?zone=Europe/Paris&label=B', "Connection: close\r\n"));
        foreach (['A' => [$a, 'Asia/Tokyo'], 'B' => [$b, 'Europe/Paris']] as $label => [$client, $zone]) {
            $response = $client->readResponse();
            self::assertSame(200, $response->status, $response->raw);
            $data = $response->json();
            self::assertSame([$zone, $label], $data['parent'], 'the request keeps its own state after its tasks');
            self::assertSame(0, $data['buffer'], 'what the tasks printed is not in the request\'s output');
            foreach ($data['tasks'] as $i => $task) {
                self::assertSame([$zone, $label, $label], $task['before'], 'a task starts with its request\'s state and context');
                self::assertSame([$i === 0 ? 'America/New_York' : 'Australia/Sydney', $label], $task['after'], 'a task resumes into its own state and its request\'s instance');
                self::assertSame("GET /isolation (task {$i})", $task['label']);
            }
        }
        // The worker's baseline is untouched: a later request starts from UTC.
        $data = self::fetch('/isolation?label=C');
        self::assertSame(['UTC', 'C'], $data['parent']);
    }

    public function testOutsideATaskTheyRunOneAfterAnother(): void
    {
        $data = self::fetch('/sequential');
        self::assertSame([1, 2], $data['results']);
        self::assertSame(['a', 'b'], $data['order']);
    }

    public function testARequestTimeoutCancelsItsTasks(): void
    {
        $server = self::sharedServer(ServerProcess::fixture('concurrent.php'), ['--workers=1', '--request-timeout=0.5']);
        $response = self::rawRequest($server, self::get('/slow-tasks', "Connection: close\r\n"));
        self::assertSame(504, $response->status);
        $stats = [];
        self::assertTrue(self::eventually(static function () use ($server, &$stats): bool {
            $stats = self::rawRequest($server, self::get('/slow-stats', "Connection: close\r\n"))->json();

            return $stats['cancelled'] === 2;
        }, 5.0), 'both tasks were cancelled: ' . \json_encode($stats));
        self::assertSame(0, $stats['finished']);
        self::assertServerAnswers($server, '/results');
    }
}
