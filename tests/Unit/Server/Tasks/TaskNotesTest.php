<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Server\Tasks;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Server\Tasks\Frames;
use Spindle\Server\Tasks\TaskCaller;
use Spindle\Server\Tasks\TaskClient;

/**
 * Notes from a running task to the HTTP worker that sent it (TaskCaller::note() in the task
 * worker, TaskClient::onNote() in the HTTP worker): each reaches its topic's handler before the
 * task's result, in order, however the bytes are cut; a note for a topic nobody handles, or
 * whose handler throws, is counted and the result still comes.
 */
final class TaskNotesTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = \sys_get_temp_dir() . '/spindle-task-notes-' . \bin2hex(\random_bytes(6));
        \mkdir($this->directory, 0700);
    }

    protected function tearDown(): void
    {
        @\unlink($this->directory . '/tasks.sock');
        @\rmdir($this->directory);
    }

    public function testNotesReachTheirHandlersBeforeTheResult(): void
    {
        $seen = [];
        $client = $this->serve(static function (TaskCaller $caller): array {
            self::assertTrue($caller->note('progress', 'one'));
            self::assertTrue($caller->note('nobody', 'lost'));
            self::assertTrue($caller->note('progress', \str_repeat('x', 100000)));
            self::assertTrue($caller->note('fails', 'boom'));

            return ['ok', 42];
        });
        $client->onNote('progress', static function (string $body) use (&$seen): void {
            $seen[] = \strlen($body) > 10 ? 'long ' . \strlen($body) : $body;
        });
        $client->onNote('fails', static fn (string $body) => throw new \DomainException($body));

        self::assertSame(42, $client->run('strlen', ['ignored']));
        self::assertSame(['one', 'long 100000'], $seen);
        self::assertSame(2, $client->droppedNotes);
    }

    public function testATaskThatFailsAfterItsNotesStillFails(): void
    {
        $seen = [];
        $client = $this->serve(static function (TaskCaller $caller): array {
            $caller->note('progress', 'half');

            return ['error', 'DomainException', 'gave up'];
        });
        $client->onNote('progress', static function (string $body) use (&$seen): void {
            $seen[] = $body;
        });
        try {
            $client->run('strlen', ['x']);
            self::fail('The task did not fail');
        } catch (\RuntimeException $e) {
            self::assertSame('The task threw DomainException: gave up', $e->getMessage());
        }
        self::assertSame(['half'], $seen);
    }

    /**
     * A task worker in this process: on the loop, it accepts one connection, reads the task,
     * attaches a TaskCaller for $run (which writes notes and returns the reply) and writes the reply.
     *
     * @param \Closure(TaskCaller): array<mixed> $run
     */
    private function serve(\Closure $run): TaskClient
    {
        $path = $this->directory . '/tasks.sock';
        $listener = \stream_socket_server('unix://' . $path);
        self::assertIsResource($listener);
        $id = EventLoop::onReadable($listener, static function (string $id) use ($listener, $run): void {
            EventLoop::cancel($id);
            $connection = \stream_socket_accept($listener, 0);
            self::assertIsResource($connection);
            $frames = new Frames();
            while (($payloads = $frames->push((string) \fread($connection, 65536))) === []) {
            }
            $caller = new TaskCaller();
            $caller->attach($connection);
            $reply = $run($caller);
            $caller->attach(null);
            self::assertFalse($caller->note('progress', 'after the task'));
            \fwrite($connection, Frames::encode($reply));
            \fclose($connection);
            \fclose($listener);
        });
        EventLoop::unreference($id);

        return new TaskClient($path);
    }
}
