<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Symfony\KernelLease;
use Spindle\Bridge\Symfony\KernelPool;
use Spindle\Bridge\Symfony\KernelResetter;
use Spindle\Tests\Unit\Server\MemoryLogger;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpFoundation\Session\Session;
use Symfony\Component\HttpFoundation\Session\Storage\MockArraySessionStorage;
use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\HttpKernel\TerminableInterface;

/** KernelLease: kernel.terminate with the request and response the kernel handled, then back to the pool, once. */
final class KernelLeaseTest extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        // As in KernelPoolTest: Debian's php-symfony-http-kernel provides the interfaces here.
        foreach ([HttpKernelInterface::class => 'HttpKernelInterface', TerminableInterface::class => 'TerminableInterface'] as $interface => $file) {
            if (!\interface_exists($interface)) {
                $path = '/usr/share/php/Symfony/Component/HttpKernel/' . $file . '.php';
                if (!\is_file($path)) {
                    self::fail('php-symfony-http-kernel is not installed; scripts/test installs it');
                }
                require_once $path;
            }
        }
    }

    public function testEndTerminatesTheKernelWithWhatItHandledAndGivesItBackOnce(): void
    {
        $kernel = self::kernel();
        $pool = self::pool($kernel);
        $lease = new KernelLease($pool->borrow(), $pool, new KernelResetter(), new MemoryLogger());
        self::assertSame($kernel, $lease->kernel);
        $request = Request::create('/page');
        $response = new Response('page');
        $lease->handling($request);
        $lease->answered($response);
        $lease->resumed();
        self::assertSame([], $kernel->terminated, 'not before end()');
        self::assertSame(0, $pool->idle());

        $lease->end();
        $lease->end();
        self::assertSame([[$request, $response]], $kernel->terminated, 'terminated once, with the request and its response');
        self::assertSame(1, $pool->idle(), 'given back once');
    }

    public function testAKernelThatDidNotAnswerIsNotTerminatedButGivenBack(): void
    {
        $kernel = self::kernel();
        $pool = self::pool($kernel);
        $lease = new KernelLease($pool->borrow(), $pool, new KernelResetter(), new MemoryLogger());
        $lease->handling(Request::create('/fails'));
        $lease->end();
        self::assertSame([], $kernel->terminated);
        self::assertSame(1, $pool->idle());
    }

    public function testAFailingTerminateIsLoggedAndTheKernelStillGoesBack(): void
    {
        $kernel = self::kernel(failTerminate: true);
        $pool = self::pool($kernel);
        $logger = new MemoryLogger();
        $lease = new KernelLease($pool->borrow(), $pool, new KernelResetter(), $logger);
        $lease->handling(Request::create('/page'));
        $lease->answered(new Response('page'));
        $lease->end();
        self::assertSame(['GET /page: kernel terminate failed: listener failed'], $logger->messages('error'));
        self::assertSame(1, $pool->idle());
    }

    /**
     * Symfony's SessionListener gives each request a session factory that holds the request: the
     * two keep each other alive until PHP's cycle collector runs. Once the lease ends, the request
     * lets go of its session, and is freed as soon as the last reference goes.
     */
    public function testAFinishedRequestIsFreedWithoutTheCycleCollector(): void
    {
        $collecting = \gc_enabled();
        \gc_disable();
        try {
            $control = self::requestWithSessionFactory('/control');
            $kept = \WeakReference::create($control);
            unset($control);
            self::assertNotNull($kept->get(), 'the control: a request and its session factory keep each other alive');

            $kernel = self::kernel();
            $pool = self::pool($kernel);
            $lease = new KernelLease($pool->borrow(), $pool, new KernelResetter(), new MemoryLogger());
            $request = self::requestWithSessionFactory('/page');
            $lease->handling($request);
            $lease->answered(new Response('page'));
            $lease->end();
            self::assertFalse($request->hasSession(), 'the finished request has no session');
            self::assertCount(1, $kernel->terminated);
            $freed = \WeakReference::create($request);
            // The test kernel remembers what it terminated; the pool holds the kernel.
            unset($request, $lease, $kernel, $pool);
            self::assertNull($freed->get(), 'freed without the cycle collector');
        } finally {
            if ($collecting) {
                \gc_enable();
            }
            \gc_collect_cycles();
        }
    }

    private static function requestWithSessionFactory(string $uri): Request
    {
        $request = Request::create($uri);
        $request->setSessionFactory(static function () use ($request): Session {
            $request->attributes->set('session_started', true);

            return new Session(new MockArraySessionStorage());
        });

        return $request;
    }

    private static function pool(HttpKernelInterface $kernel): KernelPool
    {
        return new KernelPool(static fn (): HttpKernelInterface => $kernel, 1);
    }

    /** @return HttpKernelInterface&TerminableInterface&object{terminated: list<array{Request, Response}>} */
    private static function kernel(bool $failTerminate = false): HttpKernelInterface
    {
        return new class ($failTerminate) implements HttpKernelInterface, TerminableInterface {
            /** @var list<array{Request, Response}> */
            public array $terminated = [];

            public function __construct(private readonly bool $failTerminate)
            {
            }

            public function handle(Request $request, int $type = self::MAIN_REQUEST, bool $catch = true): Response
            {
                return new Response('handled');
            }

            public function terminate(Request $request, Response $response): void
            {
                if ($this->failTerminate) {
                    throw new \RuntimeException('listener failed');
                }
                $this->terminated[] = [$request, $response];
            }
        };
    }
}
