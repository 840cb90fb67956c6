<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony;

use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Spindle\Bridge\Symfony\KernelPool;
use Spindle\Tests\Unit\Server\MemoryLogger;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpKernel\HttpKernelInterface;

final class KernelPoolTest extends TestCase
{
    /** @var list<HttpKernelInterface> kernels a leaking app keeps */
    public static array $held = [];

    protected function tearDown(): void
    {
        self::$held = [];
    }

    public static function setUpBeforeClass(): void
    {
        // Spindle's own dependencies have no symfony/http-kernel; the bridge uses the app's.
        // Debian's php-symfony-http-kernel provides the interface here.
        if (!\interface_exists(HttpKernelInterface::class)) {
            $file = '/usr/share/php/Symfony/Component/HttpKernel/HttpKernelInterface.php';
            if (!\is_file($file)) {
                self::fail('php-symfony-http-kernel is not installed; scripts/test installs it');
            }
            require_once $file;
        }
    }

    public function testKernelsAreCreatedOnDemandAndReused(): void
    {
        $created = 0;
        $pool = new KernelPool(static function () use (&$created): HttpKernelInterface {
            ++$created;

            return self::kernel();
        }, 3);
        self::assertSame(0, $pool->size());

        $first = $pool->borrow();
        $second = $pool->borrow();
        self::assertNotSame($first, $second);
        self::assertSame(2, $created);

        $pool->release($first);
        self::assertSame($first, $pool->borrow(), 'an idle kernel is reused before a new one is made');
        self::assertSame(2, $created);
        self::assertSame(2, $pool->size());
    }

    public function testATrimLetsGoTheIdleKernelsTheQuietPeriodDidNotNeedButTheFirst(): void
    {
        $pool = new KernelPool(static fn (): HttpKernelInterface => self::kernel(), 10);
        $kernels = [$pool->borrow(), $pool->borrow(), $pool->borrow()];
        $references = \array_map(\WeakReference::create(...), $kernels);
        foreach ($kernels as $kernel) {
            $pool->release($kernel);
        }
        unset($kernels, $kernel);
        $pool->trim();
        self::assertSame(3, $pool->size(), 'the period that ends needed three at once');

        $held = $pool->borrow();
        $pool->release($held);
        unset($held);
        $pool->trim();
        self::assertSame(1, $pool->size(), 'the next period needed one');
        self::assertSame(1, $pool->idle());
        self::assertCount(1, \array_filter($references, static fn (\WeakReference $r): bool => $r->get() !== null), 'the two let go are freed');

        $pool->trim();
        self::assertSame(1, $pool->size(), 'the first kernel stays however quiet the worker is');
    }

    public function testAKernelLetGoThatAStaticStillHoldsIsReportedButTheOneOfTheLastRequest(): void
    {
        $logger = new MemoryLogger();
        $pool = new KernelPool(static fn (): HttpKernelInterface => self::kernel(), 10, 0.0, $logger);
        $first = $pool->borrow();
        self::$held[] = $second = $pool->borrow();
        self::$held[] = $third = $pool->borrow();
        $pool->release($third);
        $pool->release($second);
        unset($second, $third);
        $pool->trim();
        // The first is still lent out (a long request): the other two, idle, are let go.
        $pool->trim();
        EventLoop::run();
        self::assertSame(1, $pool->size());
        $pool->release($first);

        $warnings = $logger->messages('warning');
        self::assertCount(1, $warnings, \implode("\n", $warnings));
        self::assertStringStartsWith('Symfony kernel 2 was let go but is still referenced from ' . self::class . '::$held[0]', $warnings[0], 'the third, lent out last, may stay held: the error handler keeps the kernel of the last request');
    }

    public function testKernelsLetGoAndFreedAreNotReported(): void
    {
        $logger = new MemoryLogger();
        $pool = new KernelPool(static fn (): HttpKernelInterface => self::kernel(), 10, 0.0, $logger);
        $kernels = [$pool->borrow(), $pool->borrow(), $pool->borrow()];
        foreach ($kernels as $kernel) {
            $pool->release($kernel);
        }
        unset($kernels, $kernel);
        $pool->trim();
        $pool->release($pool->borrow());
        $pool->trim();
        EventLoop::run();

        self::assertSame(1, $pool->size());
        self::assertSame([], $logger->messages('warning'));
    }

    public function testAKernelLentOutIsNeverLetGo(): void
    {
        $pool = new KernelPool(static fn (): HttpKernelInterface => self::kernel(), 10);
        $busy = $pool->borrow();
        $other = $pool->borrow();
        $pool->release($other);
        $pool->trim();
        $pool->trim();
        self::assertSame(1, $pool->size());
        self::assertSame(0, $pool->idle(), 'the busy one is the one kept');
        $pool->release($busy);
        self::assertSame(1, $pool->idle());
    }

    public function testBorrowWaitsForARelease(): void
    {
        $pool = new KernelPool(static fn (): HttpKernelInterface => self::kernel(), 1);
        $only = $pool->borrow();
        $got = null;
        $fiber = new \Fiber(static function () use ($pool, &$got): void {
            $got = $pool->borrow();
        });
        $fiber->start();
        self::assertNull($got, 'the pool is at its limit: the borrower waits');
        self::assertSame(1, $pool->size());

        EventLoop::queue(static fn () => $pool->release($only));
        EventLoop::run();
        self::assertSame($only, $got);
        self::assertSame(0, $pool->idle());
    }

    public function testFailedCreationDoesNotCount(): void
    {
        $fail = true;
        $pool = new KernelPool(static function () use (&$fail): HttpKernelInterface {
            if ($fail) {
                throw new \RuntimeException('cannot boot');
            }

            return self::kernel();
        }, 1);
        try {
            $pool->borrow();
            self::fail('expected the boot failure');
        } catch (\RuntimeException $e) {
            self::assertSame('cannot boot', $e->getMessage());
        }
        self::assertSame(0, $pool->size());
        $fail = false;
        $pool->borrow();
        self::assertSame(1, $pool->size());
    }

    public function testDiscardedKernelMakesRoomForANewOne(): void
    {
        $pool = new KernelPool(static fn (): HttpKernelInterface => self::kernel(), 1);
        $broken = $pool->borrow();
        $pool->discard($broken);
        self::assertSame(0, $pool->size());
        self::assertNotSame($broken, $pool->borrow());
    }

    private static function kernel(): HttpKernelInterface
    {
        return new class implements HttpKernelInterface {
            public function handle(Request $request, int $type = self::MAIN_REQUEST, bool $catch = true): Response
            {
                return new Response('ok');
            }
        };
    }
}
