<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\WebSocket;

use PHPUnit\Framework\TestCase;
use Spindle\Tests\Support\WebSocket\AutobahnCases;
use Spindle\Tests\Support\WebSocket\AutobahnRunner;
use Spindle\Tests\Support\WebSocket\SocketTransport;

/**
 * The Autobahn case list over real TCP: SocketTransport (one write per chop, TCP_NODELAY, the
 * suite's pauses waited for) against WebSocketSession behind tests/Support/WebSocket/
 * session-echo-server.php, started on port 0. Sections 1–7 and 10 (section 9's big messages run in
 * memory in AutobahnSuiteTest, and over TCP with autobahn-report.php --session-server).
 */
final class AutobahnOverTcpTest extends TestCase
{
    /** @var resource|null */
    private $server;
    /** @var array<int, resource> */
    private array $pipes = [];

    protected function tearDown(): void
    {
        foreach ($this->pipes as $pipe) {
            \fclose($pipe);
        }
        if ($this->server !== null) {
            \proc_close($this->server);
        }
    }

    public function testEveryCaseGetsTheStrictVerdictOverTcp(): void
    {
        $script = \dirname(__DIR__, 2) . '/Support/WebSocket/session-echo-server.php';
        $server = \proc_open([\PHP_BINARY, $script], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($server);
        $this->server = $server;
        $this->pipes = $pipes;
        $ready = \fgets($pipes[1]);
        if ($ready === false || \preg_match('~^listening on 127\.0\.0\.1:(\d+)$~', \trim($ready), $match) !== 1) {
            self::fail('The echo server did not start: ' . \stream_get_contents($pipes[2]));
        }
        $port = (int) $match[1];
        $runner = new AutobahnRunner(2.0, 5.0);
        $failures = [];
        $cases = 0;
        foreach ([1, 2, 3, 4, 5, 6, 7, 10] as $section) {
            foreach (AutobahnCases::section($section) as $case) {
                ++$cases;
                $result = $runner->run($case, SocketTransport::connect('127.0.0.1', $port));
                $strict = $case->informational
                    ? $result->behavior === 'INFORMATIONAL'
                    : $result->behavior === 'OK' && $result->behaviorClose === 'OK';
                if (!$strict) {
                    $failures[] = $result->summary();
                }
            }
        }
        self::assertSame(246, $cases);
        self::assertSame([], $failures);
    }
}
