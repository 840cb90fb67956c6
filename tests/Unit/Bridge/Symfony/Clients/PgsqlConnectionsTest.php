<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony\Clients;

use Doctrine\DBAL\Configuration;
use Doctrine\DBAL\Driver\PDO\PgSQL\Driver as PdoPgsqlDriver;
use Doctrine\DBAL\DriverManager;
use Doctrine\DBAL\Tools\DsnParser;
use PHPUnit\Framework\TestCase;
use Revolt\EventLoop;
use Revolt\EventLoop\DriverFactory;
use Spindle\Bridge\Doctrine\DriverMiddleware;
use Spindle\Bridge\Doctrine\PgsqlDriver;
use Spindle\Bridge\Symfony\Clients\ClientsPass;
use Spindle\Loop\ContextDriver;
use Symfony\Component\DependencyInjection\ContainerBuilder;

/**
 * The middleware ClientsPass registers, applied as DoctrineBundle applies it, on connections whose
 * URL has one of DoctrineBundle's schemes for pdo_pgsql: Spindle's PgsqlDriver in a worker, DBAL's
 * own with SPINDLE_PGSQL_DRIVER=native or outside a worker. tests/E2E/Symfony74PgsqlTest.php runs
 * it on the real bundle.
 */
final class PgsqlConnectionsTest extends TestCase
{
    /** DoctrineBundle's URL schemes for pdo_pgsql (its ConnectionFactory::DEFAULT_SCHEME_MAP). */
    private const BUNDLE_SCHEMES = ['postgres' => 'pdo_pgsql', 'postgresql' => 'pdo_pgsql', 'pgsql' => 'pdo_pgsql'];

    private ?EventLoop\Driver $loop = null;

    protected function setUp(): void
    {
        $this->loop = EventLoop::getDriver();
    }

    protected function tearDown(): void
    {
        \putenv('SPINDLE_PGSQL_DRIVER');
        if ($this->loop !== null) {
            EventLoop::setDriver($this->loop);
        }
    }

    private static function middleware(): DriverMiddleware
    {
        $container = new ContainerBuilder();
        $container->setParameter('doctrine.connections', ['default' => 'doctrine.dbal.default_connection']);
        ClientsPass::doctrine()->process($container);
        $container->getDefinition(ClientsPass::MIDDLEWARE)->setPublic(true);
        $container->compile();
        $middleware = $container->get(ClientsPass::MIDDLEWARE);
        self::assertInstanceOf(DriverMiddleware::class, $middleware);

        return $middleware;
    }

    /** @return class-string the driver class of a connection made from $url */
    private static function driverFor(string $url): string
    {
        $configuration = (new Configuration())->setMiddlewares([self::middleware()]);
        $params = (new DsnParser(self::BUNDLE_SCHEMES))->parse($url);

        // @phpstan-ignore argument.type
        return DriverManager::getConnection($params, $configuration)->getDriver()::class;
    }

    public function testInAWorkerEachSchemeGetsSpindlesPgsqlDriver(): void
    {
        EventLoop::setDriver(new ContextDriver((new DriverFactory())->create()));
        foreach (\array_keys(self::BUNDLE_SCHEMES) as $scheme) {
            self::assertSame(PgsqlDriver::class, self::driverFor("$scheme://app:pw@db/app?serverVersion=16"), $scheme);
        }
    }

    public function testSpindlePgsqlDriverNativeKeepsDbalsDriver(): void
    {
        EventLoop::setDriver(new ContextDriver((new DriverFactory())->create()));
        \putenv('SPINDLE_PGSQL_DRIVER=native');

        self::assertSame(PdoPgsqlDriver::class, self::driverFor('postgresql://app:pw@db/app'));
    }

    public function testOutsideAWorkerDbalsDriverIsKept(): void
    {
        // A loop that is not Spindle's (bin/console, another server).
        EventLoop::setDriver((new DriverFactory())->create());

        self::assertSame(PdoPgsqlDriver::class, self::driverFor('postgresql://app:pw@db/app'));
    }
}
