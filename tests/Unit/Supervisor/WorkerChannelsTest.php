<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Supervisor;

use PHPUnit\Framework\TestCase;
use Psr\Log\LogLevel;
use Spindle\Metrics\Family;
use Spindle\Metrics\MetricType;
use Spindle\Server\Channel\BootFailed;
use Spindle\Server\Channel\Exiting;
use Spindle\Server\Channel\MetricsReport;
use Spindle\Server\Channel\Ready;
use Spindle\Server\Channel\Report;
use Spindle\Server\Channel\Retire;
use Spindle\Server\Channel\WorkerMessage;
use Spindle\Server\ChannelToMaster;
use Spindle\Server\ExitCause;
use Spindle\Server\RetireReason;
use Spindle\Supervisor\Action\Action;
use Spindle\Supervisor\Action\Announce;
use Spindle\Supervisor\Action\LogLine;
use Spindle\Supervisor\Action\SpawnWorker;
use Spindle\Supervisor\ExitStatus;
use Spindle\Supervisor\MasterState;
use Spindle\Supervisor\MetricsEndpoint;
use Spindle\Supervisor\SupervisorConfig;
use Spindle\Supervisor\WorkerChannels;
use Spindle\Tests\Unit\Server\MemoryLogger;

/**
 * The master's reading of its workers' channels, over real socket pairs and without a fork: what
 * a worker's ChannelToMaster writes reaches MasterState as typed messages and is acted on; a
 * garbage line is logged and the master reads on.
 */
final class WorkerChannelsTest extends TestCase
{
    private const PID = 4242;

    private MemoryLogger $logger;
    private WorkerChannels $channels;
    /** @var resource the worker's end */
    private $worker;
    private MasterState $state;
    private int $nextPid = self::PID;

    protected function setUp(): void
    {
        $this->logger = new MemoryLogger();
        $this->channels = new WorkerChannels($this->logger);
        $this->state = new MasterState(new SupervisorConfig(workers: 1));
        $this->act($this->state->start(0.0));
    }

    protected function tearDown(): void
    {
        $this->channels->forgetAll();
        if (\is_resource($this->worker)) {
            \fclose($this->worker);
        }
    }

    public function testTheMasterActsOnEveryMessageAWorkerSends(): void
    {
        $channel = new ChannelToMaster($this->worker);
        $channel->ready();
        $actions = $this->deliver(1.0);
        self::assertCount(1, self::only($actions, Announce::class), 'ready: all workers accept, the server is announced');

        $channel->report(42, 3, 7, 4_194_304, 6_000_000, 0.002);
        self::assertSame([], $this->deliver(2.0));
        $worker = $this->state->status(2.0)['workers'][0];
        self::assertSame([42, 3, 7, 4_194_304, 0.002], [$worker['requests'], $worker['inflight'], $worker['connections'], $worker['memory'], $worker['lag']]);

        $channel->retire(RetireReason::MaxMemory);
        $actions = $this->deliver(3.0);
        self::assertCount(1, self::only($actions, SpawnWorker::class), 'retire: its replacement starts');
        self::assertStringContainsString('(max-memory)', self::logLines($actions)[0]);
        $replacement = $this->nextPid - 1;
        self::assertSame(2, \count($this->state->pids()));

        $channel->exiting(ExitCause::FatalError, 50, 2);
        $actions = $this->deliver(4.0);
        self::assertStringContainsString('fatal error', \implode("\n", self::logLines($actions)));
        self::assertSame([], $this->logger->lines, 'nothing malformed');

        // The replacement fails to boot: its boot error is read as its channel closes.
        [$master, $worker] = self::pair();
        $this->channels->add($replacement, $master);
        (new ChannelToMaster($worker))->bootFailed(new \RuntimeException('no database'));
        \fclose($worker);
        $messages = $this->channels->close($replacement);
        self::assertEquals([new BootFailed('RuntimeException: no database')], $messages);
        $this->apply($replacement, $messages, 5.0);
        $actions = $this->act($this->state->exited($replacement, new ExitStatus(70), 5.0));
        self::assertStringContainsString('RuntimeException: no database', \implode("\n", self::logLines($actions)));
        self::assertFalse($this->channels->has($replacement));
    }

    public function testMetricsReachTheMastersEndpoint(): void
    {
        $endpoint = new MetricsEndpoint($this->state);
        $channel = new ChannelToMaster($this->worker);
        $channel->ready();
        $channel->send(new MetricsReport([new Family('app_orders_total', MetricType::Counter, 'Orders', [], [], ['' => 5.0])]));
        $messages = $this->channels->readable([$this->master()])[self::PID] ?? [];
        self::assertCount(2, $messages);
        self::assertInstanceOf(MetricsReport::class, $messages[1]);
        $endpoint->report(self::PID, $messages[1]->families);
        [$status, , $body] = $endpoint->respond('/metrics', 1.0);
        self::assertSame(200, $status);
        self::assertStringContainsString('app_orders_total 5', $body);
    }

    public function testAGarbageLineIsLoggedAndTheMessagesAroundItCount(): void
    {
        $channel = new ChannelToMaster($this->worker);
        $channel->ready();
        \fwrite($this->worker, "Warning: something printed here\n{\"type\":\"nonsense\"}\n");
        $channel->report(9, 0, 1, 1024, 2048, 0.0);

        $messages = $this->channels->read(self::PID);
        self::assertEquals([new Ready(), new Report(9, 0, 1, 1024, 2048, 0.0)], $messages);
        self::assertSame([
            'Worker 4242 sent a malformed message (ignored): not a JSON object: "Warning: something printed here"',
            'Worker 4242 sent a malformed message (ignored): unknown message type "nonsense": "{\"type\":\"nonsense\"}"',
        ], $this->logger->messages(LogLevel::WARNING));
        $this->apply(self::PID, $messages, 1.0);
        self::assertSame(9, $this->state->status(1.0)['workers'][0]['requests']);
    }

    public function testAMessageCutShortByTheChannelsEndIsLogged(): void
    {
        $line = "{\"type\":\"report\",\"requests\":1";
        \fwrite($this->worker, $line);
        \fclose($this->worker);
        self::assertSame([], $this->channels->close(self::PID));
        self::assertSame(["Worker 4242's channel ended in the middle of a message (ignored)"], $this->logger->messages(LogLevel::WARNING));
    }

    public function testReadingAQuietOrUnknownChannelGivesNothing(): void
    {
        self::assertSame([], $this->channels->read(self::PID), 'nothing written: the read does not wait');
        self::assertSame([], $this->channels->read(999));
        self::assertSame([], $this->channels->close(999));
        self::assertSame([], $this->channels->readable([]));
    }

    /**
     * What the master's channel from the worker holds now, given to the state machine.
     *
     * @return list<Action>
     */
    private function deliver(float $now): array
    {
        $messages = $this->channels->read(self::PID);
        self::assertCount(1, $messages);

        return $this->apply(self::PID, $messages, $now);
    }

    /**
     * As the master does with what it read.
     *
     * @param list<WorkerMessage> $messages
     *
     * @return list<Action>
     */
    private function apply(int $pid, array $messages, float $now): array
    {
        $actions = [];
        foreach ($messages as $message) {
            \array_push($actions, ...$this->act($this->state->message($pid, $message, $now)));
        }

        return $actions;
    }

    /**
     * Forks what is asked: the first worker gets a channel of socket pair.
     *
     * @param list<Action> $actions
     *
     * @return list<Action>
     */
    private function act(array $actions): array
    {
        foreach ($actions as $action) {
            if ($action instanceof SpawnWorker) {
                $pid = $this->nextPid++;
                $this->state->spawned($action->id, $pid);
                if ($pid === self::PID) {
                    [$master, $this->worker] = self::pair();
                    $this->channels->add($pid, $master);
                }
            }
        }

        return $actions;
    }

    /** @return resource */
    private function master()
    {
        $streams = $this->channels->streams();
        self::assertCount(1, $streams);

        return $streams[0];
    }

    /** @return array{resource, resource} */
    private static function pair(): array
    {
        $pair = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        self::assertNotFalse($pair);

        return [$pair[0], $pair[1]];
    }

    /**
     * @param list<Action> $actions
     * @param class-string $class
     *
     * @return list<Action>
     */
    private static function only(array $actions, string $class): array
    {
        return \array_values(\array_filter($actions, static fn (Action $action): bool => $action instanceof $class));
    }

    /**
     * @param list<Action> $actions
     *
     * @return list<string>
     */
    private static function logLines(array $actions): array
    {
        return \array_values(\array_map(static fn (LogLine $line): string => $line->message, \array_filter($actions, static fn (Action $a): bool => $a instanceof LogLine)));
    }
}
