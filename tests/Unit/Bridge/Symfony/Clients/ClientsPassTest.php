<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony\Clients;

use Doctrine\DBAL\Configuration;
use Doctrine\DBAL\Logging\Middleware as LoggingMiddleware;
use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Revolt\EventLoop;
use Revolt\EventLoop\DriverFactory;
use Spindle\Bridge\Doctrine\DriverMiddleware;
use Spindle\Bridge\Symfony\Clients\ClientsPass;
use Spindle\Bridge\Symfony\Clients\HttpClients;
use Spindle\Bridge\Symfony\Clients\RedisPools;
use Spindle\HttpClient\Symfony\SpindleHttpClient;
use Spindle\Loop\ContextDriver;
use Symfony\Component\Cache\Adapter\AbstractAdapter;
use Symfony\Component\Cache\Adapter\MemcachedAdapter;
use Symfony\Component\Cache\Adapter\RedisAdapter;
use Symfony\Component\DependencyInjection\Argument\ServiceClosureArgument;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\DependencyInjection\Definition;
use Symfony\Component\DependencyInjection\Reference;
use Symfony\Component\HttpClient\HttpClient;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\SessionHandlerFactory;
use Symfony\Contracts\HttpClient\HttpClientInterface;

/**
 * ClientsPass on definitions shaped as FrameworkBundle and DoctrineBundle leave them (after
 * child definitions and aliases are resolved); tests/E2E/Symfony74ClientsTest.php runs it on the
 * real bundles.
 */
final class ClientsPassTest extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        // Spindle's own dependencies have no symfony/http-client; Debian's serves here.
        if (!\is_file('/usr/share/php/Symfony/Component/HttpClient/autoload.php')) {
            self::fail('php-symfony-http-client is not installed; scripts/test installs it');
        }
        require_once '/usr/share/php/Symfony/Component/HttpClient/autoload.php';
    }

    public function testDoctrineConnectionsGetTheMiddlewareFirst(): void
    {
        $container = self::doctrineContainer();
        ClientsPass::doctrine(bundleAppliesMiddlewares: true)->process($container);

        $middleware = $container->getDefinition(ClientsPass::MIDDLEWARE);
        self::assertSame(DriverMiddleware::class, $middleware->getClass());
        self::assertSame([['priority' => ClientsPass::MIDDLEWARE_PRIORITY]], $middleware->getTag('doctrine.middleware'));
        self::assertSame(['doctrine.dbal.default_connection (DBAL)', 'doctrine.dbal.logs_connection (DBAL)'], $container->getParameter(ClientsPass::MARKER));
        // DoctrineBundle's MiddlewaresPass hands the tagged middleware to the configurations.
        self::assertSame([], $container->getDefinition('doctrine.dbal.default_connection.configuration')->getMethodCalls());
    }

    /** DoctrineBundle 2.3 to 2.5 (Symfony 5.4 apps on DBAL 3) ignore the tag: the pass sets the middlewares itself. */
    public function testWithoutTheBundlesMiddlewaresTheConfigurationsGetIt(): void
    {
        $container = self::doctrineContainer();
        $app = new Reference('app.dbal_middleware');
        $container->getDefinition('doctrine.dbal.logs_connection.configuration')->addMethodCall('setMiddlewares', [[$app]]);
        ClientsPass::doctrine(bundleAppliesMiddlewares: false)->process($container);

        self::assertFalse($container->getDefinition(ClientsPass::MIDDLEWARE)->hasTag('doctrine.middleware'));
        self::assertSame(['doctrine.dbal.default_connection (DBAL)', 'doctrine.dbal.logs_connection (DBAL)'], $container->getParameter(ClientsPass::MARKER));
        $spindle = new Reference(ClientsPass::MIDDLEWARE);
        self::assertEquals([['setMiddlewares', [[$spindle]]]], $container->getDefinition('doctrine.dbal.default_connection.configuration')->getMethodCalls());
        // The app's own middlewares kept, Spindle's first (the innermost: DBAL wraps the driver in list order).
        self::assertEquals([['setMiddlewares', [[$spindle, $app]]]], $container->getDefinition('doctrine.dbal.logs_connection.configuration')->getMethodCalls());

        // Compiled, the configuration holds the middleware.
        $container->register('app.dbal_middleware', LoggingMiddleware::class)->setArguments([new Reference('logger')]);
        $container->register('logger', NullLogger::class);
        $container->getDefinition('doctrine.dbal.logs_connection.configuration')->setPublic(true);
        $container->compile();
        $configuration = $container->get('doctrine.dbal.logs_connection.configuration');
        self::assertInstanceOf(Configuration::class, $configuration);
        $middlewares = $configuration->getMiddlewares();
        self::assertCount(2, $middlewares);
        self::assertInstanceOf(DriverMiddleware::class, $middlewares[0]);
        self::assertInstanceOf(LoggingMiddleware::class, $middlewares[1]);
    }

    /** Two connections' DBAL configurations as DoctrineBundle defines them. */
    private static function doctrineContainer(): ContainerBuilder
    {
        $container = new ContainerBuilder();
        $container->setParameter('doctrine.connections', ['default' => 'doctrine.dbal.default_connection', 'logs' => 'doctrine.dbal.logs_connection']);
        $container->register('doctrine.dbal.default_connection.configuration', Configuration::class);
        $container->register('doctrine.dbal.logs_connection.configuration', Configuration::class);

        return $container;
    }

    public function testWithoutDoctrineBundleNoMiddleware(): void
    {
        $container = new ContainerBuilder();
        ClientsPass::doctrine()->process($container);
        ClientsPass::services()->process($container);

        self::assertFalse($container->hasDefinition(ClientsPass::MIDDLEWARE));
        self::assertSame([], $container->getParameter(ClientsPass::MARKER));
    }

    public function testHttpClientTransportIsMadeBySpindlesFactoryWithTheLogger(): void
    {
        $container = new ContainerBuilder();
        $logger = new Reference('logger', ContainerInterface::IGNORE_ON_INVALID_REFERENCE);
        $container->register('http_client.transport', HttpClientInterface::class)
            ->setFactory([HttpClient::class, 'create'])
            ->setPublic(true)
            ->setArguments([['timeout' => 3], 8])
            ->addMethodCall('setLogger', [$logger])
            ->addTag('kernel.reset', ['method' => 'reset', 'on_invalid' => 'ignore']);
        ClientsPass::services()->process($container);

        $definition = $container->getDefinition('http_client.transport');
        self::assertSame([HttpClients::class, 'create'], $definition->getFactory());
        self::assertSame([$logger, ['timeout' => 3], 8], $definition->getArguments());
        self::assertSame([], $definition->getMethodCalls());
        self::assertSame(['http_client.transport (HTTP)'], $container->getParameter(ClientsPass::MARKER));

        // Compiled and made outside a worker (a loop that is not Spindle's): Symfony's own client.
        $container->compile();
        $driver = EventLoop::getDriver();
        EventLoop::setDriver((new DriverFactory())->create());
        try {
            self::assertNotInstanceOf(SpindleHttpClient::class, $container->get('http_client.transport'));
        } finally {
            EventLoop::setDriver($driver);
        }
    }

    public function testHttpClientsGivesSpindlesClientInAWorkerUnlessTheEnvironmentSaysNative(): void
    {
        $driver = EventLoop::getDriver();
        EventLoop::setDriver(new ContextDriver((new DriverFactory())->create()));
        try {
            self::assertInstanceOf(SpindleHttpClient::class, HttpClients::create(null, ['timeout' => 3]));
            \putenv('SPINDLE_HTTP_DRIVER=native');
            self::assertNotInstanceOf(SpindleHttpClient::class, HttpClients::create(null, ['timeout' => 3]));
        } finally {
            \putenv('SPINDLE_HTTP_DRIVER');
            EventLoop::setDriver($driver);
        }
    }

    public function testRedisPoolsOnADsnTakeSpindlesFactory(): void
    {
        $container = new ContainerBuilder();
        $container->register('.cache_connection.abc', AbstractAdapter::class)
            ->setFactory([AbstractAdapter::class, 'createConnection'])
            ->setArguments(['redis://cache:6379', ['lazy' => true]]);
        $container->setAlias('cache.default_redis_provider', '.cache_connection.abc');
        $marshaller = new Reference('cache.default_marshaller', ContainerInterface::IGNORE_ON_INVALID_REFERENCE);
        $container->register('cache.app', RedisAdapter::class)
            ->setArguments([new Reference('cache.default_redis_provider'), 'ns1', 0, $marshaller])
            ->addTag('cache.pool');
        // A RedisAdapter on a connection of the app's own making is the app's business.
        $container->register('app.redis', \Redis::class);
        $container->register('app.pool', RedisAdapter::class)->setArguments([new Reference('app.redis')]);
        $container->register('.cache_connection.mem', AbstractAdapter::class)
            ->setFactory([AbstractAdapter::class, 'createConnection'])
            ->setArguments(['memcached://cache:11211', []]);
        $container->register('memcached.pool', MemcachedAdapter::class)->setArguments([new Reference('.cache_connection.mem')]);
        ClientsPass::services()->process($container);

        $pool = $container->getDefinition('cache.app');
        self::assertSame([RedisPools::class, 'adapter'], $pool->getFactory());
        $arguments = $pool->getArguments();
        self::assertInstanceOf(ServiceClosureArgument::class, $arguments[0]);
        self::assertEquals([new Reference('cache.default_redis_provider')], $arguments[0]->getValues());
        self::assertSame(['redis://cache:6379', 'ns1', 0, $marshaller], \array_slice($arguments, 1));
        self::assertNull($container->getDefinition('app.pool')->getFactory());
        self::assertNull($container->getDefinition('memcached.pool')->getFactory());
        self::assertSame(['cache.app (Redis)'], $container->getParameter(ClientsPass::MARKER));
    }

    public function testSessionHandlerOnARedisDsnTakesSpindlesFactory(): void
    {
        $container = new ContainerBuilder();
        // What %env(REDIS_URL)% is by the time the pass runs: a placeholder for the variable's value.
        $dsn = $container->getParameterBag()->resolveValue('%env(REDIS_URL)%');
        self::assertIsString($dsn);
        $container->register('session.abstract_handler', \SessionHandlerInterface::class)
            ->setFactory([SessionHandlerFactory::class, 'createHandler'])
            ->setArguments([$dsn, []]);
        $container->register('other.handler', \SessionHandlerInterface::class)
            ->setFactory([SessionHandlerFactory::class, 'createHandler'])
            ->setArguments(['pdo_mysql://db/app', []]);
        ClientsPass::services()->process($container);

        $handler = $container->getDefinition('session.abstract_handler');
        self::assertSame([RedisPools::class, 'sessionHandler'], $handler->getFactory());
        self::assertSame([$dsn, [], $dsn], $handler->getArguments());
        self::assertSame([SessionHandlerFactory::class, 'createHandler'], $container->getDefinition('other.handler')->getFactory());
    }

    public function testSessionHandlerOnACacheConnectionGetsItLazily(): void
    {
        $container = new ContainerBuilder();
        $container->register('.cache_connection.abc', AbstractAdapter::class)
            ->setFactory([AbstractAdapter::class, 'createConnection'])
            ->setArguments(['rediss://secret@cache:6390', ['lazy' => true]]);
        $container->register('session.abstract_handler', \SessionHandlerInterface::class)
            ->setFactory([SessionHandlerFactory::class, 'createHandler'])
            ->setArguments([new Reference('.cache_connection.abc'), ['ttl' => 60]]);
        ClientsPass::services()->process($container);

        $arguments = $container->getDefinition('session.abstract_handler')->getArguments();
        self::assertInstanceOf(ServiceClosureArgument::class, $arguments[0]);
        self::assertSame([['ttl' => 60], 'rediss://secret@cache:6390'], \array_slice($arguments, 1));
    }

    public function testAbstractDefinitionsAreLeftAlone(): void
    {
        $container = new ContainerBuilder();
        $definition = (new Definition(HttpClientInterface::class))->setFactory([HttpClient::class, 'create'])->setAbstract(true);
        $container->setDefinition('abstract.client', $definition);
        ClientsPass::services()->process($container);

        self::assertSame([HttpClient::class, 'create'], $container->getDefinition('abstract.client')->getFactory());
    }
}
