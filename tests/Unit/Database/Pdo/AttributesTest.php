<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Database\Pdo;

use Spindle\Tests\Unit\Database\FakeConnection;
use Spindle\Database\Mysql\ConnectionConfig;
use Spindle\Database\Pdo;
use Spindle\Database\Pdo\Statement;

final class AttributesTest extends PdoTestCase
{
    /** @param array<int|string, mixed> $options */
    private static function configFor(string $dsn, ?string $user = null, ?string $password = null, array $options = []): ConnectionConfig
    {
        $seen = null;
        $options[Pdo::ATTR_CONNECTOR] = static function (ConnectionConfig $config) use (&$seen): FakeConnection {
            $seen = $config;

            return new FakeConnection();
        };
        new Pdo($dsn, $user, $password, $options);
        self::assertInstanceOf(ConnectionConfig::class, $seen);

        return $seen;
    }

    public function testDsnAndOptionsMakeTheConnectionConfig(): void
    {
        $config = self::configFor('mysql:host=db.internal;port=3307;dbname=app;charset=utf8mb4', 'app', 's3cret', [
            \PDO::ATTR_TIMEOUT => 5,
            Pdo::MYSQL_ATTR_INIT_COMMAND => "SET time_zone = '+00:00'",
            Pdo::MYSQL_ATTR_LOCAL_INFILE => true,
            Pdo::MYSQL_ATTR_MULTI_STATEMENTS => false,
            Pdo::MYSQL_ATTR_SSL_CA => '/etc/ssl/ca.pem',
            Pdo::MYSQL_ATTR_SSL_VERIFY_SERVER_CERT => false,
        ]);
        self::assertSame('db.internal', $config->host);
        self::assertSame(3307, $config->port);
        self::assertNull($config->unixSocket);
        self::assertSame('app', $config->user);
        self::assertSame('s3cret', $config->password);
        self::assertSame('app', $config->database);
        self::assertSame('utf8mb4', $config->charset);
        self::assertSame(5.0, $config->connectTimeout);
        self::assertSame(["SET time_zone = '+00:00'"], $config->initCommands);
        self::assertTrue($config->allowLocalInfile);
        self::assertFalse($config->multiStatements);
        self::assertSame(['cafile' => '/etc/ssl/ca.pem', 'verify_peer' => false, 'verify_peer_name' => false], $config->tls);
    }

    public function testDsnDefaultsAndUnixSockets(): void
    {
        $config = self::configFor('mysql:dbname=app;unix_socket=/run/mysqld/mysqld.sock', 'root');
        self::assertSame('localhost', $config->host);
        self::assertSame('/run/mysqld/mysqld.sock', $config->unixSocket);
        self::assertSame(3306, $config->port);
        self::assertSame('', $config->password);
        self::assertSame(30.0, $config->connectTimeout);
        self::assertNull($config->tls);
        self::assertTrue($config->multiStatements);

        $config = self::configFor('mysql:host=127.0.0.1;unix_socket=/ignored.sock; user=u;password=a;;b');
        self::assertNull($config->unixSocket, 'a socket is only used for localhost');
        self::assertSame('u', $config->user, 'user and password may come from the DSN');
        self::assertSame('a;b', $config->password, '";;" is a literal ";"');
        self::assertNull($config->database);
    }

    public function testCapabilityOptionsReachTheConnection(): void
    {
        $config = self::configFor('mysql:host=db', options: [Pdo::MYSQL_ATTR_FOUND_ROWS => true, Pdo::MYSQL_ATTR_IGNORE_SPACE => 1, Pdo::MYSQL_ATTR_LOCAL_INFILE_DIRECTORY => '/srv/import']);
        self::assertTrue($config->foundRows);
        self::assertTrue($config->ignoreSpace);
        self::assertSame('/srv/import', $config->localInfileDirectory);
        self::assertFalse($config->allowLocalInfile);
        self::assertTrue($config->offersLocalInfile());
        self::assertFalse($config->mayReadLocalFile('/etc/passwd'));
    }

    public function testGenericAttributes(): void
    {
        $pdo = $this->pdo();
        self::assertSame('mysql', $pdo->getAttribute(\PDO::ATTR_DRIVER_NAME));
        self::assertFalse($pdo->getAttribute(\PDO::ATTR_PERSISTENT));
        self::assertSame(\PDO::CASE_NATURAL, $pdo->getAttribute(\PDO::ATTR_CASE));
        self::assertSame(\PDO::NULL_NATURAL, $pdo->getAttribute(\PDO::ATTR_ORACLE_NULLS));
        self::assertSame(\PDO::FETCH_BOTH, $pdo->getAttribute(\PDO::ATTR_DEFAULT_FETCH_MODE));
        self::assertSame([Statement::class], $pdo->getAttribute(\PDO::ATTR_STATEMENT_CLASS));
        self::assertSame('10.11.6-MariaDB-0+deb12u1', $pdo->getAttribute(\PDO::ATTR_SERVER_VERSION));
        self::assertSame('mysqlnd ' . \PHP_VERSION, $pdo->getAttribute(\PDO::ATTR_CLIENT_VERSION));
        self::assertSame('127.0.0.1 via TCP/IP', $pdo->getAttribute(\PDO::ATTR_CONNECTION_STATUS));
        self::assertSame(1, $pdo->getAttribute(Pdo::MYSQL_ATTR_USE_BUFFERED_QUERY), 'an int, as pdo_mysql reports it');
        self::assertFalse($pdo->getAttribute(Pdo::MYSQL_ATTR_LOCAL_INFILE));
        self::assertSame(['mysql', 'pgsql'], Pdo::getAvailableDrivers());

        self::assertTrue($pdo->setAttribute(\PDO::ATTR_CASE, '2'));
        self::assertSame(\PDO::CASE_LOWER, $pdo->getAttribute(\PDO::ATTR_CASE));
        self::assertTrue($pdo->setAttribute(Pdo::MYSQL_ATTR_USE_BUFFERED_QUERY, false));
        self::assertSame(0, $pdo->getAttribute(Pdo::MYSQL_ATTR_USE_BUFFERED_QUERY));
        self::assertTrue($pdo->setAttribute(\PDO::ATTR_PERSISTENT, true) === false, 'PERSISTENT cannot be set after construction');

        self::assertFalse($pdo->getAttribute(\PDO::ATTR_STRINGIFY_FETCHES), 'PHP 8.2 reads it back');
        $e = self::pdoException(static fn () => $pdo->getAttribute(\PDO::ATTR_TIMEOUT));
        self::assertSame('SQLSTATE[IM001]: Driver does not support this function: driver does not support that attribute', $e->getMessage(), 'pdo_mysql cannot read it back either');

        $this->expectException(\TypeError::class);
        $this->expectExceptionMessage('Attribute value must be of type int for selected attribute, array given');
        $pdo->setAttribute(\PDO::ATTR_CASE, []);
    }

    public function testSocketHostInfo(): void
    {
        $pdo = $this->pdo(dsn: 'mysql:host=localhost;unix_socket=/tmp/m.sock');
        self::assertSame('Localhost via UNIX socket', $pdo->getAttribute(\PDO::ATTR_CONNECTION_STATUS));
    }

    public function testServerInfo(): void
    {
        $pdo = $this->pdo();
        $this->connection->willReturn(FakeConnection::rows(['Variable_name', 'Value'], [
            ['Open_tables', '10'], ['Opened_tables', '17'], ['Questions', '20'], ['Slow_queries', '0'], ['Threads_connected', '1'], ['Uptime', '10'],
        ]));
        self::assertSame('Uptime: 10  Threads: 1  Questions: 20  Slow queries: 0  Opens: 17  Open tables: 10  Queries per second avg: 2.000', $pdo->getAttribute(\PDO::ATTR_SERVER_INFO));
    }

    public function testStatementClass(): void
    {
        $pdo = $this->pdo([\PDO::ATTR_STATEMENT_CLASS => [LoggingStatement::class, ['log:']]]);
        self::assertSame([LoggingStatement::class, ['log:']], $pdo->getAttribute(\PDO::ATTR_STATEMENT_CLASS));
        $this->connection->willReturn(FakeConnection::rows(['a'], [[1]]));
        $stmt = $pdo->query('SELECT 1 AS a');
        self::assertInstanceOf(LoggingStatement::class, $stmt);
        self::assertSame('log:SELECT 1 AS a', $stmt->label);
        self::assertSame('SELECT 1 AS a', $stmt->queryString);
        self::assertSame(['a' => 1], $stmt->fetch(), 'the constructor set the fetch mode');

        $stmt = $pdo->prepare('SELECT 2', [\PDO::ATTR_STATEMENT_CLASS => [Statement::class]]);
        self::assertSame(Statement::class, $stmt::class);

        try {
            $pdo->setAttribute(\PDO::ATTR_STATEMENT_CLASS, [\ArrayObject::class]);
            self::fail('a class that is no Statement was accepted');
        } catch (\TypeError $e) {
            self::assertSame('PDO::ATTR_STATEMENT_CLASS class must be derived from PDOStatement', $e->getMessage());
        }
        $this->expectException(\TypeError::class);
        $this->expectExceptionMessage('User-supplied statement class cannot have a public constructor');
        $pdo->setAttribute(\PDO::ATTR_STATEMENT_CLASS, [PublicConstructorStatement::class]);
    }

    public function testEmulationCanBeSwitchedPerHandle(): void
    {
        $pdo = $this->pdo();
        self::assertTrue($pdo->setAttribute(Pdo::MYSQL_ATTR_DIRECT_QUERY, false));
        self::assertSame(0, $pdo->getAttribute(\PDO::ATTR_EMULATE_PREPARES));
        $pdo->prepare('SELECT ?');
        self::assertSame(['SELECT ?'], $this->connection->prepared);
    }

    public function testDebugInfoHidesInternals(): void
    {
        $pdo = $this->pdo();
        self::assertSame([], $pdo->__debugInfo(), 'a subclass shows its own properties, Spindle none');
        self::assertSame(['queryString' => 'SELECT 1'], $pdo->prepare('SELECT 1')->__debugInfo());
    }
}

class LoggingStatement extends Statement
{
    public string $label;

    protected function __construct(string $prefix)
    {
        $this->label = $prefix . $this->queryString;
        $this->setFetchMode(\PDO::FETCH_ASSOC);
    }
}

final class PublicConstructorStatement extends Statement
{
    public function __construct()
    {
    }
}
