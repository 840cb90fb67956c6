<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Clients;

use Spindle\Bridge\Doctrine\DbalFeatures;
use Spindle\Bridge\Doctrine\DriverMiddleware;
use Symfony\Component\Cache\Adapter\AbstractAdapter;
use Symfony\Component\Cache\Adapter\RedisAdapter;
use Symfony\Component\DependencyInjection\Argument\ServiceClosureArgument;
use Symfony\Component\DependencyInjection\Compiler\CompilerPassInterface;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\Definition;
use Symfony\Component\DependencyInjection\Reference;
use Symfony\Component\HttpClient\HttpClient;
use Symfony\Component\HttpFoundation\Session\Storage\Handler\SessionHandlerFactory;

/**
 * Gives a Symfony app's standard services Spindle's clients, without a change to its
 * configuration: DoctrineBundle connections (a DBAL middleware, DriverMiddleware), the Redis
 * cache pools and the Redis session handler that framework.cache and framework.session make
 * from a DSN (RedisPools), and the `http_client` transport (HttpClients). Each service decides
 * when it is made: Spindle's client in a worker of `spindle serve` unless its variable says
 * `native`, the app's own anywhere else, so the same compiled container serves bin/console.
 *
 * Two runs: doctrine() before DoctrineBundle's MiddlewaresPass (it registers the tagged
 * middleware, or, for a DoctrineBundle without that pass, gives it to the connections'
 * configurations itself), services() once child definitions and aliases are resolved (it rewrites
 * the final definitions).
 */
final class ClientsPass implements CompilerPassInterface
{
    /** The parameter telling a container built with this pass: the services it gave Spindle's clients (list<string>). */
    public const MARKER = 'spindle.clients';
    public const MIDDLEWARE = 'spindle.doctrine.driver_middleware';
    /** DBAL applies middlewares in the order DoctrineBundle lists them, highest priority first: this one first. */
    public const MIDDLEWARE_PRIORITY = 1_000_000;

    private function __construct(private readonly bool $doctrine, private readonly ?bool $bundleAppliesMiddlewares = null)
    {
    }

    /**
     * Registers the middleware (TYPE_BEFORE_OPTIMIZATION, before DoctrineBundle's MiddlewaresPass).
     *
     * @param bool|null $bundleAppliesMiddlewares whether DoctrineBundle hands tagged middlewares to
     *                                            the connections; null: whether the installed one has the pass that does
     */
    public static function doctrine(?bool $bundleAppliesMiddlewares = null): self
    {
        return new self(true, $bundleAppliesMiddlewares);
    }

    /** Rewrites the Redis and HTTP client definitions (TYPE_BEFORE_REMOVING). */
    public static function services(): self
    {
        return new self(false);
    }

    public function process(ContainerBuilder $container): void
    {
        if ($this->doctrine) {
            $container->setParameter(self::MARKER, $this->registerMiddleware($container));

            return;
        }
        $wired = $container->hasParameter(self::MARKER) ? $container->getParameter(self::MARKER) : [];
        $wired = \is_array($wired) ? $wired : [];
        foreach ($container->getDefinitions() as $id => $definition) {
            if ($definition->isAbstract()) {
                continue;
            }
            $factory = self::factory($definition);
            if ($factory === [HttpClient::class, 'create']) {
                self::httpClient($definition);
                $wired[] = $id . ' (HTTP)';
            } elseif ($factory === [SessionHandlerFactory::class, 'createHandler'] && self::sessionHandler($container, $definition)) {
                $wired[] = $id . ' (Redis sessions)';
            } elseif ($factory === null && $definition->getClass() === RedisAdapter::class && self::redisPool($container, $definition)) {
                $wired[] = $id . ' (Redis)';
            }
        }
        $container->setParameter(self::MARKER, $wired);
    }

    /** @return list<string> the connections the middleware serves */
    private function registerMiddleware(ContainerBuilder $container): array
    {
        $connections = $container->hasParameter('doctrine.connections') ? $container->getParameter('doctrine.connections') : null;
        if (!\is_array($connections) || !DbalFeatures::driverMiddlewares()) {
            return [];
        }
        $bundleApplies = $this->bundleAppliesMiddlewares ?? DbalFeatures::bundleMiddlewares();
        if (!$container->hasDefinition(self::MIDDLEWARE)) {
            $middleware = $container->register(self::MIDDLEWARE, DriverMiddleware::class);
            if ($bundleApplies) {
                $middleware->addTag('doctrine.middleware', ['priority' => self::MIDDLEWARE_PRIORITY]);
            }
        }
        if (!$bundleApplies) {
            // An older DoctrineBundle (2.3 to 2.5, on DBAL 3) knows no middlewares of its own.
            foreach (\array_keys($connections) as $name) {
                self::prependMiddleware($container, \sprintf('doctrine.dbal.%s_connection.configuration', \is_string($name) ? $name : ''));
            }
        }

        return \array_map(static fn (mixed $id): string => \sprintf('%s (DBAL)', \is_string($id) ? $id : ''), \array_values($connections));
    }

    /**
     * The middleware first (innermost) in the middlewares of a connection's DBAL configuration,
     * before any the app's own setMiddlewares() call lists (the last such call is the one that counts).
     */
    private static function prependMiddleware(ContainerBuilder $container, string $configuration): void
    {
        if (!$container->hasDefinition($configuration)) {
            return;
        }
        $definition = $container->getDefinition($configuration);
        $calls = $definition->getMethodCalls();
        foreach (\array_reverse(\array_keys($calls)) as $i) {
            $arguments = $calls[$i][1];
            $first = \array_key_first($arguments);
            if (\strcasecmp($calls[$i][0], 'setMiddlewares') === 0 && $first !== null && \is_array($arguments[$first])) {
                $calls[$i][1][$first] = [new Reference(self::MIDDLEWARE), ...\array_values($arguments[$first])];
                $definition->setMethodCalls($calls);

                return;
            }
        }
        $definition->addMethodCall('setMiddlewares', [[new Reference(self::MIDDLEWARE)]]);
    }

    /** HttpClient::create($options, $maxHostConnections, …) then setLogger($logger): HttpClients::create($logger, $options, …). */
    private static function httpClient(Definition $definition): void
    {
        $logger = null;
        $calls = [];
        foreach ($definition->getMethodCalls() as $call) {
            if ($call[0] === 'setLogger' && $logger === null) {
                $logger = $call[1][0] ?? null;
                continue;
            }
            $calls[] = $call;
        }
        $definition->setMethodCalls($calls);
        $definition->setFactory([HttpClients::class, 'create']);
        $definition->setArguments([$logger, ...\array_values($definition->getArguments())]);
    }

    /** SessionHandlerFactory::createHandler($dsnOrConnection, $options) for a Redis DSN: RedisPools::sessionHandler(). */
    private static function sessionHandler(ContainerBuilder $container, Definition $definition): bool
    {
        $arguments = \array_values($definition->getArguments());
        $connection = $arguments[0] ?? null;
        $dsn = $connection instanceof Reference ? self::connectionDsn($container, $connection) : $connection;
        if (!\is_string($dsn) || !self::mayBeRedis($container, $dsn)) {
            return false;
        }
        $definition->setFactory([RedisPools::class, 'sessionHandler']);
        $definition->setArguments([
            $connection instanceof Reference ? new ServiceClosureArgument($connection) : $connection,
            $arguments[1] ?? [],
            $dsn,
        ]);

        return true;
    }

    /** new RedisAdapter($connection, $namespace, $lifetime, $marshaller) on a DSN's connection: RedisPools::adapter(). */
    private static function redisPool(ContainerBuilder $container, Definition $definition): bool
    {
        $arguments = \array_values($definition->getArguments());
        $connection = $arguments[0] ?? null;
        $dsn = $connection instanceof Reference ? self::connectionDsn($container, $connection) : null;
        if ($dsn === null || !self::mayBeRedis($container, $dsn)) {
            return false;
        }
        \assert($connection instanceof Reference);
        $definition->setFactory([RedisPools::class, 'adapter']);
        $definition->setArguments([new ServiceClosureArgument($connection), $dsn, ...\array_slice($arguments, 1)]);

        return true;
    }

    /** The DSN a connection service of framework.cache is made from (AbstractAdapter::createConnection), if it is one. */
    private static function connectionDsn(ContainerBuilder $container, Reference $reference): ?string
    {
        $id = (string) $reference;
        while ($container->hasAlias($id)) {
            $id = (string) $container->getAlias($id);
        }
        if (!$container->hasDefinition($id)) {
            return null;
        }
        $definition = $container->getDefinition($id);
        $factory = self::factory($definition);
        if ($factory === null || !\in_array($factory[0], [AbstractAdapter::class, RedisAdapter::class], true) || $factory[1] !== 'createConnection') {
            return null;
        }
        $dsn = \array_values($definition->getArguments())[0] ?? null;

        return \is_string($dsn) ? $dsn : null;
    }

    /** A DSN that is Redis's, or an environment variable's value that may be. */
    private static function mayBeRedis(ContainerBuilder $container, string $dsn): bool
    {
        $resolved = $container->resolveEnvPlaceholders($dsn, null, $usedEnvs);

        return $usedEnvs !== [] && $usedEnvs !== null || (\is_string($resolved) && \preg_match('#^rediss?:#i', $resolved) === 1);
    }

    /** @return array{string, string}|null a static factory [class, method] */
    private static function factory(Definition $definition): ?array
    {
        $factory = $definition->getFactory();
        if (!\is_array($factory) || !\is_string($factory[0] ?? null) || !\is_string($factory[1] ?? null)) {
            return null;
        }

        return [\ltrim($factory[0], '\\'), $factory[1]];
    }
}
