<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\HttpFoundation;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Bridge\HttpFoundation\ResponseConverter;
use Spindle\Bridge\HttpFoundation\StreamAbandoned;
use Spindle\Http\Response;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\StreamedResponse;

use function Spindle\context;
use function Spindle\delay;

/** StreamedResponse callbacks: their output reaches the client as printed, and they may wait. */
final class StreamedResponseTest extends TestCase
{
    private TaskRunner $runner;
    private ResponseConverter $converter;
    private int $obLevel;

    protected function setUp(): void
    {
        $this->runner = new TaskRunner(Loop::driver());
        $this->converter = new ResponseConverter();
        $this->obLevel = \ob_get_level();
    }

    protected function tearDown(): void
    {
        self::assertSame($this->obLevel, \ob_get_level(), 'output buffering levels are restored');
    }

    /** Runs $task as a request of its own (its own fiber and context), as Spindle's connection does. */
    private function request(string $label, \Closure $task): void
    {
        $this->runner->run(new Context($label), $task);
    }

    private function convert(StreamedResponse $response, string $method = 'GET'): Response
    {
        return $this->converter->toSpindle($response, Request::create('http://example.com/events', $method));
    }

    /**
     * @param iterable<string> $body
     *
     * @return list<string>
     */
    private static function drain(iterable $body): array
    {
        $pieces = [];
        foreach ($body as $piece) {
            $pieces[] = $piece;
        }

        return $pieces;
    }

    public function testEachPieceIsHandedOutBeforeTheCallbackEnds(): void
    {
        $log = [];
        $this->request('GET /events', function () use (&$log): void {
            $response = $this->convert(new StreamedResponse(static function () use (&$log): void {
                echo "data: 1\n\n";
                \flush();
                delay(0.05);
                echo "data: 2\n\n";
                delay(0.05);
                echo 'data: ';
                echo "3\n\n";
                $log[] = 'callback ended';
            }, 200, ['Content-Type' => 'text/event-stream']));
            self::assertIsIterable($response->body);
            self::assertStringStartsWith('text/event-stream', $response->headers['Content-Type'][0]);
            foreach ($response->body as $piece) {
                $log[] = $piece;
            }
        });
        EventLoop::run();

        // The last two echoes came without a wait in between: they are handed out together, at the end.
        self::assertSame(["data: 1\n\n", "data: 2\n\n", 'callback ended', "data: 3\n\n"], $log);
    }

    public function testCallbackWaitingDoesNotHoldUpOtherRequests(): void
    {
        $log = [];
        $this->request('GET /slow-stream', function () use (&$log): void {
            $response = $this->convert(new StreamedResponse(static function () use (&$log): void {
                echo 'a';
                delay(0.1);
                echo 'b';
                $log[] = 'stream callback ended';
            }));
            \assert(\is_iterable($response->body));
            $log[] = 'stream got ' . \implode('', self::drain($response->body));
        });
        $this->request('GET /fast', static function () use (&$log): void {
            delay(0.01);
            $log[] = 'other request done';
        });
        EventLoop::run();

        self::assertSame(['other request done', 'stream callback ended', 'stream got ab'], $log);
    }

    public function testOutputOfOtherFibersIsNotTakenIntoTheStream(): void
    {
        $pieces = [];
        $this->request('GET /stream', function () use (&$pieces): void {
            $response = $this->convert(new StreamedResponse(static function (): void {
                echo 'mine-1;';
                delay(0.05);
                echo 'mine-2;';
            }));
            \assert(\is_iterable($response->body));
            $pieces = self::drain($response->body);
        });
        $this->request('GET /noisy', static function (): void {
            delay(0.01);
            // Printed while the stream's buffer is on top of PHP's buffer stack.
            echo 'noise';
        });
        EventLoop::run();

        self::assertSame('mine-1;mine-2;', \implode('', $pieces));
        $this->expectOutputString('noise');
    }

    public function testConcurrentStreamsEndingInAnyOrderKeepTheirOwnOutputAndRestoreBuffering(): void
    {
        $got = [];
        foreach (['long' => 0.08, 'short' => 0.02, 'middle' => 0.05] as $name => $wait) {
            $this->request('GET /' . $name, function () use (&$got, $name, $wait): void {
                $response = $this->convert(new StreamedResponse(static function () use ($name, $wait): void {
                    echo $name . '-start;';
                    delay($wait);
                    echo $name . '-end;';
                }));
                \assert(\is_iterable($response->body));
                $got[$name] = \implode('', self::drain($response->body));
            });
        }
        EventLoop::run();

        self::assertSame([
            'short' => 'short-start;short-end;',
            'middle' => 'middle-start;middle-end;',
            'long' => 'long-start;long-end;',
        ], $got);
        // tearDown() checks that no buffer was left behind.
    }

    public function testExceptionFromTheCallbackComesAfterWhatItPrinted(): void
    {
        $pieces = [];
        $caught = null;
        $this->request('GET /failing', function () use (&$pieces, &$caught): void {
            $response = $this->convert(new StreamedResponse(static function (): void {
                echo 'partial';
                delay(0.01);

                throw new \DomainException('export failed');
            }));
            \assert(\is_iterable($response->body));
            try {
                foreach ($response->body as $piece) {
                    $pieces[] = $piece;
                }
            } catch (\DomainException $e) {
                $caught = $e->getMessage();
            }
        });
        EventLoop::run();

        self::assertSame(['partial'], $pieces);
        self::assertSame('export failed', $caught);
    }

    public function testAbandonedStreamCancelsTheCallbackWhereItWaits(): void
    {
        $seen = null;
        $printedAfter = false;
        $this->request('GET /endless', function () use (&$seen, &$printedAfter): void {
            $response = $this->convert(new StreamedResponse(static function () use (&$seen, &$printedAfter): void {
                try {
                    for ($i = 0; $i < 500; ++$i) {
                        echo "tick\n";
                        delay(0.01);
                    }
                } catch (StreamAbandoned $e) {
                    $seen = $e;
                }
                echo 'nobody reads this';
                $printedAfter = true;
            }));
            \assert($response->body instanceof \Generator);
            $count = 0;
            foreach ($response->body as $piece) {
                if (++$count === 3) {
                    break; // the client left
                }
            }
        });
        // Ends only if the endless callback was stopped.
        EventLoop::run();

        self::assertInstanceOf(StreamAbandoned::class, $seen);
        self::assertStringContainsString('GET /endless', $seen->getMessage());
        self::assertTrue($printedAfter);
    }

    public function testCallbackRunsTheRequestsResumeHooks(): void
    {
        $global = null;
        $seenInCallback = [];
        $this->request('GET /with-state', function () use (&$global, &$seenInCallback): void {
            $global = 'request A';
            // A framework bridge restores its app instance's globals this way.
            context()?->onResume(static function () use (&$global): void {
                $global = 'request A';
            });
            $response = $this->convert(new StreamedResponse(static function () use (&$global, &$seenInCallback): void {
                $seenInCallback[] = $global;
                delay(0.02);
                $seenInCallback[] = $global;
                echo 'x';
            }));
            \assert(\is_iterable($response->body));
            self::assertSame(['x'], self::drain($response->body));
        });
        $this->request('GET /other', static function () use (&$global): void {
            delay(0.01);
            $global = 'request B';
        });
        EventLoop::run();

        self::assertSame(['request A', 'request A'], $seenInCallback);
    }

    public function testLargeOutputWithoutWaitingIsNotHeldInMemory(): void
    {
        $received = 0;
        $growth = 0;
        $this->request('GET /export', function () use (&$received, &$growth): void {
            $before = \memory_get_usage();
            $response = $this->convert(new StreamedResponse(static function (): void {
                $piece = \str_repeat('x', 65536);
                for ($i = 0; $i < 256; ++$i) {
                    echo $piece; // 16 MiB, never waiting
                }
            }));
            \assert(\is_iterable($response->body));
            foreach ($response->body as $piece) {
                if ($received === 0) {
                    // The callback has printed everything by now.
                    $growth = \memory_get_usage() - $before;
                }
                $received += \strlen($piece);
            }
        });
        EventLoop::run();

        self::assertSame(16 * 1048576, $received);
        self::assertLessThan(4 * 1048576, $growth, 'output beyond 1 MiB waits in a temporary file');
    }

    public function testHeadDoesNotRunTheCallback(): void
    {
        $ran = false;
        $response = $this->convert(new StreamedResponse(static function () use (&$ran): void {
            $ran = true;
        }), 'HEAD');
        \assert(\is_iterable($response->body));

        self::assertSame([], self::drain($response->body));
        self::assertFalse($ran);
    }
}
