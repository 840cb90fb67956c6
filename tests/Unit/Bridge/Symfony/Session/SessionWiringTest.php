<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony\Session;

use PHPUnit\Framework\TestCase;
use Psr\Container\ContainerInterface;
use Spindle\Bridge\Symfony\Session\FileSessionHandler;
use Spindle\Bridge\Symfony\Session\SessionStorage;
use Spindle\Bridge\Symfony\Session\SessionWiring;
use Symfony\Component\EventDispatcher\EventDispatcher;
use Symfony\Component\HttpFoundation\Cookie;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\RequestStack;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpFoundation\Session\Session;
use Symfony\Component\HttpFoundation\Session\SessionFactory;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\IdentityMarshaller;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\MarshallingSessionHandler;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\NativeFileSessionHandler;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\StrictSessionHandler;
use Symfony\Component\HttpFoundation\Session\Storage\MetadataBag;
use Symfony\Component\HttpFoundation\Session\Storage\MockFileSessionStorageFactory;
use Symfony\Component\HttpFoundation\Session\Storage\NativeSessionStorageFactory;
use Symfony\Component\HttpFoundation\Session\Storage\SessionStorageFactoryInterface;
use Symfony\Component\HttpKernel\Event\RequestEvent;
use Symfony\Component\HttpKernel\Event\ResponseEvent;
use Symfony\Component\HttpKernel\Event\TerminateEvent;
use Symfony\Component\HttpKernel\EventListener\SessionListener;
use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\HttpKernel\KernelEvents;
use Symfony\Component\HttpKernel\KernelInterface;

/**
 * SessionWiring against the session classes of this checkout's symfony/http-foundation (6.4)
 * and Debian's http-kernel 5.4 listener; the end-to-end tests cover a whole Symfony 5.4 app.
 */
final class SessionWiringTest extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        // Spindle's own dependencies have no http-kernel, event-dispatcher or dependency-injection:
        // Debian's packages provide them here, as for the app.
        if (!\class_exists(SessionListener::class)) {
            \spl_autoload_register(static function (string $class): void {
                foreach ([
                    'Symfony\\Component\\HttpKernel\\' => 'Symfony/Component/HttpKernel/',
                    'Symfony\\Component\\EventDispatcher\\' => 'Symfony/Component/EventDispatcher/',
                    'Symfony\\Component\\Cache\\' => 'Symfony/Component/Cache/',
                    'Symfony\\Contracts\\EventDispatcher\\' => 'Symfony/Contracts/EventDispatcher/',
                    'Psr\\EventDispatcher\\' => 'Psr/EventDispatcher/',
                ] as $prefix => $path) {
                    if (\str_starts_with($class, $prefix)) {
                        $file = '/usr/share/php/' . $path . (\str_ends_with($prefix, '\\') ? \str_replace('\\', '/', \substr($class, \strlen($prefix))) : '') . '.php';
                        if (\is_file($file)) {
                            require $file;
                        }
                    }
                }
            });
        }
        if (!\class_exists(SessionListener::class)) {
            self::markTestSkipped('Debian\'s php-symfony-http-kernel is not installed');
        }
    }

    public function testNativeFactoryIsReplacedAndTheRequestsSessionUsesSpindlesStorage(): void
    {
        $handler = new RecordingHandler();
        [$kernel, $dispatcher] = $this->kernel(new NativeSessionStorageFactory(
            ['cache_limiter' => '0', 'name' => 'APPSESS', 'cookie_secure' => 'auto', 'cookie_samesite' => 'lax', 'cookie_httponly' => true, 'gc_probability' => 0],
            $handler,
            new MetadataBag('_sf2_meta', 0),
            true,
        ));
        $setup = SessionWiring::install($kernel);
        self::assertTrue($setup->installed, $setup->description);
        self::assertStringContainsString('cookie APPSESS', $setup->description);
        self::assertStringContainsString(RecordingHandler::class, $setup->description, 'an app\'s own handler is kept');

        // A request over HTTPS without a cookie: a new session, a Secure cookie (cookie_secure auto).
        $request = Request::create('https://example.com/');
        $response = $this->handle($dispatcher, $request, static function (Request $request): void {
            $request->getSession()->set('value', 'apple');
        });
        $session = $request->getSession();
        self::assertInstanceOf(SessionStorage::class, self::storageOf($session));
        $id = $session->getId();
        self::assertArrayHasKey($id, $handler->sessions, 'saved through the app\'s handler');
        $cookie = self::cookie($response, 'APPSESS');
        self::assertSame($id, $cookie->getValue());
        self::assertTrue($cookie->isSecure());
        self::assertTrue($cookie->isHttpOnly());
        self::assertSame('lax', $cookie->getSameSite());
        self::assertStringContainsString('private', (string) $response->headers->get('Cache-Control'));

        // Next request, plain HTTP, with the cookie: the value, no new cookie.
        $next = Request::create('http://example.com/', cookies: ['APPSESS' => $id]);
        $value = null;
        $response = $this->handle($dispatcher, $next, static function (Request $request) use (&$value): void {
            $value = $request->getSession()->get('value');
        });
        self::assertSame('apple', $value);
        self::assertSame([], $response->headers->getCookies());

        // A request without the cookie sees nothing of it.
        $anonymous = Request::create('http://example.com/');
        $value = 'unset';
        $this->handle($dispatcher, $anonymous, static function (Request $request) use (&$value): void {
            $value = $request->getSession()->get('value');
        });
        self::assertNull($value);
        self::assertNotSame($id, $anonymous->getSession()->getId());

        // A session used again after the response (a streamed body, a terminate listener) is
        // saved when the kernel terminates, as PHP saves an open session at the script's end.
        $late = Request::create('http://example.com/', cookies: ['APPSESS' => $id]);
        $response = $this->handle($dispatcher, $late, static function (): void {
        });
        $late->getSession()->set('late', 'yes');
        $dispatcher->dispatch(new TerminateEvent($this->createStub(HttpKernelInterface::class), $late, $response), KernelEvents::TERMINATE);
        self::assertStringContainsString('late', $handler->sessions[$id]);
    }

    public function testPhpsOwnFilesHandlerBecomesSpindlesBehindTheSameMarshaller(): void
    {
        $native = new MarshallingSessionHandler(new StrictSessionHandler(new \SessionHandler()), new IdentityMarshaller());
        $replaced = SessionWiring::withoutNativeHandler($native);
        self::assertInstanceOf(MarshallingSessionHandler::class, $replaced);
        self::assertNotSame($native, $replaced);
        self::assertInstanceOf(FileSessionHandler::class, self::property($replaced, MarshallingSessionHandler::class, 'handler'));
        self::assertInstanceOf(IdentityMarshaller::class, self::property($replaced, MarshallingSessionHandler::class, 'marshaller'));
        // The original is left as it was.
        self::assertTrue(self::property($native, MarshallingSessionHandler::class, 'handler')->isWrapper());

        $savePath = (string) \ini_get('session.save_path');
        self::assertInstanceOf(FileSessionHandler::class, SessionWiring::withoutNativeHandler(new NativeFileSessionHandler($savePath === '' ? null : $savePath)));
        self::assertInstanceOf(FileSessionHandler::class, SessionWiring::withoutNativeHandler(new StrictSessionHandler(new \SessionHandler())));
        $own = new RecordingHandler();
        self::assertSame($own, SessionWiring::withoutNativeHandler($own));
    }

    public function testOtherStorageFactoriesAreKept(): void
    {
        $mock = new MockFileSessionStorageFactory(\sys_get_temp_dir());
        [$kernel, , $sessionFactory] = $this->kernel($mock);
        $setup = SessionWiring::install($kernel);
        self::assertFalse($setup->installed);
        self::assertTrue($setup->enabled);
        self::assertStringContainsString(MockFileSessionStorageFactory::class, $setup->description);
        self::assertSame($mock, self::property($sessionFactory, SessionFactory::class, 'storageFactory'));
    }

    public function testKernelWithoutSessionsIsLeftAlone(): void
    {
        $kernel = $this->kernelWith(new EventDispatcher());
        $setup = SessionWiring::install($kernel);
        self::assertFalse($setup->enabled);
        self::assertFalse($setup->installed);
    }

    /**
     * A kernel whose container holds what FrameworkBundle wires for framework.session.
     *
     * @return array{KernelInterface, EventDispatcher, SessionFactory}
     */
    private function kernel(SessionStorageFactoryInterface $storageFactory): array
    {
        $requestStack = new RequestStack();
        $sessionFactory = new SessionFactory($requestStack, $storageFactory);
        $locator = new class(['session_factory' => $sessionFactory, 'request_stack' => $requestStack]) implements ContainerInterface {
            /** @param array<string, object> $services */
            public function __construct(private readonly array $services)
            {
            }

            public function get(string $id): mixed
            {
                return $this->services[$id];
            }

            public function has(string $id): bool
            {
                return isset($this->services[$id]);
            }
        };
        $dispatcher = new EventDispatcher();
        $dispatcher->addSubscriber(new SessionListener($locator, false, ['cookie_samesite' => 'lax', 'cookie_secure' => 'auto']));
        $dispatcher->addListener(KernelEvents::REQUEST, static function (RequestEvent $event) use ($requestStack): void {
            $requestStack->push($event->getRequest());
        }, 1024);
        return [$this->kernelWith($dispatcher), $dispatcher, $sessionFactory];
    }

    private function kernelWith(EventDispatcher $dispatcher): KernelInterface
    {
        // What the kernel's compiled container answers (DependencyInjection 5.4 itself does not
        // load next to this checkout's psr/container).
        $container = new class($dispatcher) {
            public function __construct(private readonly EventDispatcher $dispatcher)
            {
            }

            public function has(string $id): bool
            {
                return $id === 'event_dispatcher';
            }

            public function get(string $id): ?object
            {
                return $id === 'event_dispatcher' ? $this->dispatcher : null;
            }

            public function hasParameter(string $name): bool
            {
                return false;
            }
        };
        $kernel = $this->createStub(KernelInterface::class);
        $kernel->method('getContainer')->willReturn($container);

        return $kernel;
    }

    /** The kernel.request and kernel.response events around $controller, as HttpKernel dispatches them. */
    private function handle(EventDispatcher $dispatcher, Request $request, \Closure $controller): Response
    {
        $kernel = $this->createStub(HttpKernelInterface::class);
        $dispatcher->dispatch(new RequestEvent($kernel, $request, HttpKernelInterface::MAIN_REQUEST), KernelEvents::REQUEST);
        $controller($request);
        $event = new ResponseEvent($kernel, $request, HttpKernelInterface::MAIN_REQUEST, new Response('ok'));
        $dispatcher->dispatch($event, KernelEvents::RESPONSE);

        return $event->getResponse();
    }

    private static function cookie(Response $response, string $name): Cookie
    {
        foreach ($response->headers->getCookies() as $cookie) {
            if ($cookie->getName() === $name) {
                return $cookie;
            }
        }
        self::fail("No {$name} cookie");
    }

    private static function storageOf(Session $session): mixed
    {
        return self::property($session, Session::class, 'storage');
    }

    /** @param class-string $scope */
    private static function property(object $object, string $scope, string $name): mixed
    {
        return (\Closure::bind(static fn (object $o): mixed => $o->{$name}, null, $scope))($object);
    }
}
