<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

use Psr\Container\ContainerInterface;
use Symfony\Component\EventDispatcher\Debug\WrappedListener;
use Symfony\Component\EventDispatcher\EventDispatcherInterface;
use Symfony\Component\HttpFoundation\Session\SessionFactory;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\MarshallingSessionHandler;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\StrictSessionHandler;
use Symfony\Component\HttpFoundation\Session\Storage\MetadataBag;
use Symfony\Component\HttpFoundation\Session\Storage\NativeSessionStorage;
use Symfony\Component\HttpFoundation\Session\Storage\NativeSessionStorageFactory;
use Symfony\Component\HttpFoundation\Session\Storage\Proxy\SessionHandlerProxy;
use Symfony\Component\HttpFoundation\Session\Storage\SessionStorageFactoryInterface;
use Symfony\Component\HttpKernel\EventListener\AbstractSessionListener;
use Symfony\Component\HttpKernel\KernelEvents;
use Symfony\Component\HttpKernel\KernelInterface;

/**
 * Makes framework.session safe for requests that run at once in one worker, without a change
 * to the app: in each booted kernel, the session factory's storage factory (the native one,
 * which goes through PHP's process-wide session module) is replaced with a
 * SessionStorageFactory that makes Spindle's SessionStorage with the same options, save
 * handler and metadata bag. A save handler that is PHP's own "files" module (handler_id null,
 * or session.handler.native_file) becomes FileSessionHandler on the same save path; any other
 * handler (Redis, PDO, Memcached, a service of the app) is kept as it is.
 *
 * The compiled container offers no public way to this: the factory is reached through the
 * session listener the kernel's event dispatcher holds, and the settings are read from the
 * native factory's properties, as Symfony 5.4 and 6.4 name them. An app whose session setup
 * differs (a custom storage factory, the mock storage of tests, the PHP bridge) keeps its own,
 * and the result says so.
 */
final class SessionWiring
{
    /** Wires the kernel's sessions and describes what was done, for the log. */
    public static function install(KernelInterface $kernel): SessionSetup
    {
        $container = $kernel->getContainer();
        $dispatcher = $container->has('event_dispatcher') ? $container->get('event_dispatcher') : null;
        if (!$dispatcher instanceof EventDispatcherInterface || !\class_exists(SessionFactory::class)) {
            return SessionSetup::none();
        }
        $listener = self::sessionListener($dispatcher);
        if ($listener === null) {
            return SessionSetup::none();
        }
        $locator = self::read($listener, AbstractSessionListener::class, 'container');
        if (!$locator instanceof ContainerInterface || !$locator->has('session_factory')) {
            return SessionSetup::unchanged('the session listener has no session factory');
        }
        $sessionFactory = $locator->get('session_factory');
        if (!$sessionFactory instanceof SessionFactory) {
            return SessionSetup::unchanged(\sprintf('the session factory is %s', \get_debug_type($sessionFactory)));
        }
        $storageFactory = self::read($sessionFactory, SessionFactory::class, 'storageFactory');
        if ($storageFactory instanceof SessionStorageFactory) {
            return SessionSetup::installed($storageFactory, \get_debug_type($storageFactory->handler));
        }
        if ($storageFactory instanceof NativeSessionStorageFactory) {
            $options = self::read($storageFactory, NativeSessionStorageFactory::class, 'options');
            $handler = self::read($storageFactory, NativeSessionStorageFactory::class, 'handler');
            $metadataBag = self::read($storageFactory, NativeSessionStorageFactory::class, 'metaBag');
            // cookie_secure "auto" is also the factory's $secure flag.
            if (\is_array($options) && self::read($storageFactory, NativeSessionStorageFactory::class, 'secure') === true && ($options['cookie_secure'] ?? null) !== true) {
                $options['cookie_secure'] = 'auto';
            }
        } elseif (\is_object($storageFactory) && \property_exists($storageFactory, 'storage')
            && ($storage = self::read($storageFactory, $storageFactory::class, 'storage')) instanceof NativeSessionStorage) {
            // Symfony 5.4 without storage_factory_id: one NativeSessionStorage service.
            $options = $container->hasParameter('session.storage.options') ? $container->getParameter('session.storage.options') : [];
            $handler = $storage->getSaveHandler();
            $metadataBag = $storage->getMetadataBag();
        } else {
            return SessionSetup::unchanged(\sprintf('the session storage factory is %s', \get_debug_type($storageFactory)));
        }
        if ($handler instanceof SessionHandlerProxy) {
            $handler = $handler->getHandler();
        }
        $handler ??= new \SessionHandler();
        if (!$handler instanceof \SessionHandlerInterface || !\is_array($options) || !($metadataBag === null || $metadataBag instanceof MetadataBag)) {
            return SessionSetup::unchanged('the native session storage factory is not the one of Symfony 5.4 or 6.4');
        }
        $original = $handler;
        $handler = self::withoutNativeHandler($handler);
        if ($handler === null) {
            return SessionSetup::unchanged(\sprintf('PHP\'s session.save_handler "%s" has no equivalent outside PHP\'s session module', \ini_get('session.save_handler')));
        }
        /** @var array<string, mixed> $options */
        $factory = new SessionStorageFactory(SessionOptions::fromArray($options), $handler, $metadataBag, (string) \ini_get('session.save_path'));
        self::write($sessionFactory, SessionFactory::class, 'storageFactory', $factory);
        $lifecycle = new SessionLifecycle($factory);
        $dispatcher->addListener(KernelEvents::REQUEST, $lifecycle->onRequest(...), SessionLifecycle::REQUEST_PRIORITY);
        $dispatcher->addListener(KernelEvents::RESPONSE, $lifecycle, SessionLifecycle::RESPONSE_PRIORITY);
        $dispatcher->addListener(KernelEvents::TERMINATE, $lifecycle->onTerminate(...), -1024);

        $description = $handler === $original ? \get_debug_type($original) : 'files in ' . FileSessionHandler::fromSavePath((string) \ini_get('session.save_path'))->directory;

        return SessionSetup::installed($factory, $description);
    }

    /**
     * The handler with PHP's native "files" module replaced by FileSessionHandler; null when
     * the native module is another one.
     */
    public static function withoutNativeHandler(\SessionHandlerInterface $handler): ?\SessionHandlerInterface
    {
        if ($handler instanceof \SessionHandler || ($handler instanceof StrictSessionHandler && $handler->isWrapper())) {
            return self::nativeFiles();
        }
        if ($handler instanceof MarshallingSessionHandler) {
            $inner = self::read($handler, MarshallingSessionHandler::class, 'handler');
            if (!$inner instanceof \SessionHandlerInterface) {
                return $handler;
            }
            $replaced = self::withoutNativeHandler($inner);
            if ($replaced === null) {
                return null;
            }
            if ($replaced !== $inner) {
                // The same marshaller (encryption, igbinary, …) around the replaced handler.
                $handler = clone $handler;
                self::write($handler, MarshallingSessionHandler::class, 'handler', $replaced);
            }
        }

        return $handler;
    }

    private static function nativeFiles(): ?FileSessionHandler
    {
        if (\ini_get('session.save_handler') !== 'files') {
            return null;
        }

        return FileSessionHandler::fromSavePath((string) \ini_get('session.save_path'));
    }

    private static function sessionListener(EventDispatcherInterface $dispatcher): ?AbstractSessionListener
    {
        foreach ($dispatcher->getListeners(KernelEvents::REQUEST) as $listener) {
            $callable = $listener instanceof WrappedListener ? $listener->getWrappedListener() : $listener;
            if (\is_array($callable) && ($callable[0] ?? null) instanceof AbstractSessionListener) {
                return $callable[0];
            }
        }

        return null;
    }

    /** @param class-string $scope */
    private static function read(object $object, string $scope, string $property): mixed
    {
        if (!\property_exists($scope, $property)) {
            return null;
        }

        return (\Closure::bind(static fn (object $o): mixed => $o->{$property} ?? null, null, $scope))($object);
    }

    /** @param class-string $scope */
    private static function write(object $object, string $scope, string $property, mixed $value): void
    {
        (\Closure::bind(static function (object $o) use ($property, $value): void {
            $o->{$property} = $value;
        }, null, $scope))($object);
    }
}
