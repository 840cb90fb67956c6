<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Doctrine;

use Doctrine\DBAL\Connection;
use Doctrine\DBAL\DriverManager;
use Doctrine\DBAL\Exception\ConnectionException;
use Doctrine\DBAL\Exception\ConnectionLost;
use Doctrine\DBAL\Exception\DeadlockException;
use Doctrine\DBAL\Exception\DriverException;
use Doctrine\DBAL\Exception\LockWaitTimeoutException;
use Doctrine\DBAL\Exception\SyntaxErrorException;
use Doctrine\DBAL\Exception\TableNotFoundException;
use Doctrine\DBAL\Exception\UniqueConstraintViolationException;
use Doctrine\DBAL\Platforms\MariaDBPlatform;
use Doctrine\DBAL\Platforms\MySQLPlatform;
use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Doctrine\Driver;
use Spindle\Bridge\Doctrine\InvalidConfiguration;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Mysql\MysqlException;
use Spindle\Database\Pdo;
use Spindle\Tests\Unit\Database\FakeConnection;

/** The driver over a fake MySQL connection: what reaches the connection, and how errors come back. */
final class DriverTest extends TestCase
{
    private FakeConnection $fake;
    private ?ConnectionConfig $config = null;

    protected function setUp(): void
    {
        $this->fake = new FakeConnection();
    }

    /** @param array<string, mixed> $params */
    private function connection(array $params = []): Connection
    {
        $params += ['driverClass' => Driver::class, 'host' => 'db.internal', 'port' => 3307, 'dbname' => 'app', 'user' => 'app', 'password' => 'secret', 'charset' => 'utf8mb4'];
        /** @var array<int|string, mixed> $options */
        $options = $params['driverOptions'] ?? [];
        $options[Pdo::ATTR_CONNECTOR] = function (ConnectionConfig $config): FakeConnection {
            $this->config = $config;

            return $this->fake;
        };
        $params['driverOptions'] = $options;

        // @phpstan-ignore argument.type
        return DriverManager::getConnection($params);
    }

    private function config(): ConnectionConfig
    {
        self::assertNotNull($this->config, 'the driver did not connect');

        return $this->config;
    }

    public function testConnectsWithTheParametersGiven(): void
    {
        $db = $this->connection();
        $this->fake->willReturn(FakeConnection::rows(['a'], [['1']]));

        self::assertSame('1', (string) $db->fetchOne('SELECT 1'));
        $config = $this->config();
        self::assertSame('db.internal', $config->host);
        self::assertSame(3307, $config->port);
        self::assertNull($config->unixSocket);
        self::assertSame('app', $config->database);
        self::assertSame('app', $config->user);
        self::assertSame('secret', $config->password);
        self::assertSame('utf8mb4', $config->charset);
        self::assertSame(['SELECT 1'], $this->fake->queries);
        self::assertInstanceOf(Pdo::class, $db->getNativeConnection());
    }

    public function testTheDriverClassWinsOverADriverName(): void
    {
        // As DoctrineBundle passes them: the URL's scheme as 'driver', the configured class too.
        $db = $this->connection(['driver' => 'pdo_mysql']);

        self::assertInstanceOf(Pdo::class, $db->getNativeConnection());
        self::assertNotNull($this->config);
    }

    public function testWithoutHostTheUnixSocketIsUsed(): void
    {
        $db = $this->connection(['host' => null, 'port' => null, 'unix_socket' => '/run/mysqld/mysqld.sock']);
        $db->getNativeConnection(); // connects

        self::assertSame('/run/mysqld/mysqld.sock', $this->config()->unixSocket);
    }

    public function testDriverOptionsReachThePdo(): void
    {
        $db = $this->connection(['driverOptions' => [
            Pdo::MYSQL_ATTR_INIT_COMMAND => "SET time_zone = '+00:00'",
            \PDO::ATTR_EMULATE_PREPARES => false,
        ]]);
        $pdo = $db->getNativeConnection();

        self::assertInstanceOf(Pdo::class, $pdo);
        self::assertSame(["SET time_zone = '+00:00'"], $this->config()->initCommands);
        self::assertSame(\PDO::ERRMODE_EXCEPTION, $pdo->getAttribute(\PDO::ATTR_ERRMODE));
        // Without emulation the server prepares the statement.
        $this->fake->willReturn(FakeConnection::rows(['a'], [['7']]));
        $db->fetchOne('SELECT ?', [7]);
        self::assertSame(['SELECT ?'], $this->fake->prepared);
    }

    public function testServerVersionChoosesThePlatform(): void
    {
        $db = $this->connection();
        self::assertInstanceOf(MariaDBPlatform::class, $db->getDatabasePlatform());

        $this->fake = new FakeConnection();
        $this->fake->version = '8.0.36';
        $db = $this->connection();
        $platform = $db->getDatabasePlatform();
        self::assertInstanceOf(MySQLPlatform::class, $platform);
        self::assertNotInstanceOf(MariaDBPlatform::class, $platform);
    }

    public function testDsnIsBuiltLikePdoMysqlOfDbal(): void
    {
        self::assertSame(
            'mysql:host=db;port=3306;dbname=app;unix_socket=/tmp/x.sock;charset=utf8mb4;',
            Driver::dsn(['host' => 'db', 'port' => 3306, 'dbname' => 'app', 'unix_socket' => '/tmp/x.sock', 'charset' => 'utf8mb4', 'user' => 'u']),
        );
        self::assertSame('mysql:dbname=app;', Driver::dsn(['host' => '', 'dbname' => 'app']));
    }

    public function testParametersOfTheWrongTypeAreRefused(): void
    {
        $this->expectException(InvalidConfiguration::class);
        $this->expectExceptionMessage('The password connection parameter must be a string or null, int given.');

        (new Driver())->connect(['password' => 1234]);
    }

    /** @return iterable<string, array{int, string, class-string<DriverException>}> */
    public static function errors(): iterable
    {
        yield 'duplicate key' => [1062, '23000', UniqueConstraintViolationException::class];
        yield 'no such table' => [1146, '42S02', TableNotFoundException::class];
        yield 'syntax error' => [1064, '42000', SyntaxErrorException::class];
        yield 'deadlock' => [1213, '40001', DeadlockException::class];
        yield 'lock wait timeout' => [1205, 'HY000', LockWaitTimeoutException::class];
        yield 'server gone away' => [2006, 'HY000', ConnectionLost::class];
    }

    /**
     * @dataProvider errors
     *
     * @param class-string<DriverException> $class
     */
    public function testErrorsBecomeDbalsExceptions(int $code, string $sqlState, string $class): void
    {
        $db = $this->connection();
        $db->getNativeConnection(); // connects
        $this->fake->willFail($code, 'the server says no', $sqlState);

        try {
            $db->executeStatement('UPDATE t SET a = 1');
            self::fail('no exception');
        } catch (DriverException $e) {
            self::assertInstanceOf($class, $e);
            self::assertSame($code, $e->getCode());
            self::assertSame($sqlState, $e->getSQLState());
            self::assertStringContainsString("SQLSTATE[$sqlState]", $e->getMessage());
            self::assertStringContainsString('the server says no', $e->getMessage());
        }
    }

    public function testAFailedConnectKeepsTheErrorNumber(): void
    {
        $db = DriverManager::getConnection([
            'driverClass' => Driver::class,
            'host' => '127.0.0.1',
            'driverOptions' => [Pdo::ATTR_CONNECTOR => static function (): never {
                throw new MysqlException("Access denied for user 'app'@'localhost' (using password: YES)", 1045, '28000');
            }],
        ]);

        try {
            $db->getNativeConnection(); // connects
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertSame(1045, $e->getCode());
            self::assertSame('HY000', $e->getSQLState());
            self::assertStringContainsString('SQLSTATE[HY000] [1045] Access denied', $e->getMessage());
        }
    }
}
