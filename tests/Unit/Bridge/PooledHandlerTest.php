<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\InstanceLease;
use Spindle\Bridge\PooledHandler;
use Spindle\Bridge\PooledKernel;
use Spindle\Http\FileBody;
use Spindle\Http\Request;
use Spindle\Http\Response;
use Spindle\Loop\Context;
use Spindle\Loop\Loop;
use Spindle\Loop\TaskRunner;

/** PooledHandler: when the lease of a borrowed instance ends, for each kind of response. */
final class PooledHandlerTest extends TestCase
{
    /** @var list<string> */
    private array $log = [];

    public function testAStringBodyEndsTheLeaseAfterTheResponseIsHandedOn(): void
    {
        $handler = $this->handler(static fn () => new Response(200, [], 'hello'));
        $context = $this->inRequest(function () use ($handler): void {
            $response = $handler(self::request());
            self::assertSame('hello', $response->body);
            $this->log[] = 'returned';
        });
        self::assertSame(['borrow 1', 'handle 1', 'returned'], $this->log, 'the lease is held until the response is sent');
        $context->runDeferred(static fn () => null);
        $context->runDeferred(static fn () => null);
        self::assertSame(['borrow 1', 'handle 1', 'returned', 'end 1'], $this->log, 'then ended once, after the response');
    }

    public function testAFileBodyEndsTheLeaseAfterTheResponseToo(): void
    {
        $handler = $this->handler(static fn () => new Response(200, [], new FileBody(__FILE__, 0, 10)));
        $context = $this->inRequest(static function () use ($handler): void {
            $handler(self::request());
        });
        self::assertSame(['borrow 1', 'handle 1'], $this->log);
        $context->runDeferred(static fn () => null);
        self::assertSame(['borrow 1', 'handle 1', 'end 1'], $this->log);
    }

    public function testOutsideARequestTheLeaseEndsBeforeTheResponseIsReturned(): void
    {
        self::assertNull(Loop::context());
        $handler = $this->handler(static fn () => new Response(200, [], 'hello'));
        $handler(self::request());
        self::assertSame(['borrow 1', 'handle 1', 'end 1'], $this->log);
    }

    public function testAnErrorEndsTheLeaseAndGoesOn(): void
    {
        $handler = $this->handler(static fn () => throw new \DomainException('the app failed'));
        $this->inRequest(function () use ($handler): void {
            try {
                $handler(self::request());
                self::fail('the error goes on');
            } catch (\DomainException $e) {
                self::assertSame('the app failed', $e->getMessage());
            }
            self::assertSame(['borrow 1', 'handle 1', 'end 1'], $this->log, 'ended at once, in the request');
        });
    }

    public function testAStreamedBodyHoldsTheInstanceUntilItsLastPiece(): void
    {
        $pieces = (function (): \Generator {
            $this->log[] = 'piece a';
            yield 'a';
            $this->log[] = 'piece b';
            yield 'b';
        })();
        $handler = $this->handler(static fn () => new Response(200, ['content-type' => ['text/plain']], $pieces, 'Fine'));
        $context = $this->inRequest(function () use ($handler): void {
            $response = $handler(self::request());
            self::assertSame([200, ['content-type' => ['text/plain']], 'Fine'], [$response->status, $response->headers, $response->reason]);
            self::assertIsIterable($response->body);
            $sent = [];
            foreach ($response->body as $piece) {
                $sent[] = $piece;
                $this->log[] = 'sent ' . $piece;
            }
            self::assertSame(['a', 'b'], $sent);
        });
        $context->runDeferred(static fn () => null);
        self::assertSame(
            ['borrow 1', 'handle 1', 'resumed 1', 'piece a', 'sent a', 'resumed 1', 'piece b', 'sent b', 'resumed 1', 'end 1'],
            $this->log,
            'the instance is made current for each piece, and the lease ends after the last, once',
        );
    }

    public function testAStreamedBodyKeepsItsTrailers(): void
    {
        $trailers = static fn (): array => ['x-checksum' => 'abc'];
        $handler = $this->handler(static fn () => new Response(200, [], new \ArrayIterator(['a']), '', null, $trailers));
        $context = $this->inRequest(function () use ($handler, $trailers): void {
            $response = $handler(self::request());
            self::assertSame($trailers, $response->trailers);
            self::assertSame(['a'], \iterator_to_array($response->body));
        });
        $context->runDeferred(static fn () => null);
    }

    public function testAStreamedBodyDroppedUnsentEndsTheLease(): void
    {
        $handler = $this->handler(static fn () => new Response(200, [], new \ArrayIterator(['never sent'])));
        $this->inRequest(function () use ($handler): void {
            $response = $handler(self::request());
            self::assertSame(['borrow 1', 'handle 1'], $this->log);
            unset($response);
            self::assertSame(['borrow 1', 'handle 1', 'end 1'], $this->log, 'a HEAD request, a client gone: the lease ends with the body');
        });
    }

    public function testEachRequestHasALeaseOfItsOwn(): void
    {
        $handler = $this->handler(static fn () => new Response(200, [], 'hello'));
        $handler(self::request());
        $handler(self::request());
        self::assertSame(['borrow 1', 'handle 1', 'end 1', 'borrow 2', 'handle 2', 'end 2'], $this->log);
    }

    /**
     * A handler over a kernel whose handle() answers with $answer, every step logged.
     *
     * @param \Closure(): Response $answer
     *
     * @return PooledHandler<InstanceLease>
     */
    private function handler(\Closure $answer): PooledHandler
    {
        $record = function (string $event): void {
            $this->log[] = $event;
        };
        $kernel = new class ($record, $answer) implements PooledKernel {
            private int $leases = 0;

            /**
             * @param \Closure(string): void $record
             * @param \Closure(): Response $answer
             */
            public function __construct(private readonly \Closure $record, private readonly \Closure $answer)
            {
            }

            public function borrow(): InstanceLease
            {
                $number = ++$this->leases;
                ($this->record)('borrow ' . $number);

                return new class ($this->record, $number) implements InstanceLease {
                    private bool $ended = false;

                    /** @param \Closure(string): void $record */
                    public function __construct(private readonly \Closure $record, public readonly int $number)
                    {
                    }

                    public function resumed(): void
                    {
                        ($this->record)('resumed ' . $this->number);
                    }

                    public function detach(): void
                    {
                        ($this->record)('detach ' . $this->number);
                    }

                    public function end(): void
                    {
                        // As the interface says: only the first call counts.
                        if (!$this->ended) {
                            $this->ended = true;
                            ($this->record)('end ' . $this->number);
                        }
                    }
                };
            }

            public function handle(InstanceLease $lease, Request $request): Response
            {
                \assert(\property_exists($lease, 'number'));
                ($this->record)('handle ' . $lease->number);

                return ($this->answer)();
            }
        };

        return new PooledHandler($kernel);
    }

    /** Runs $task as a request does (its own fiber and context) and returns the context. */
    private function inRequest(\Closure $task): Context
    {
        $context = new Context('GET /');
        (new TaskRunner(Loop::driver()))->run($context, $task);

        return $context;
    }

    private static function request(): Request
    {
        return new Request('GET', '/', '/', '', '1.1', ['host' => ['example.com']]);
    }
}
