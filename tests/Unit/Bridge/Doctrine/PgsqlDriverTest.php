<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Doctrine;

use Doctrine\DBAL\Driver\PDO\PgSQL\Driver as PdoPgsqlDriver;
use Doctrine\DBAL\Tools\DsnParser;
use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Doctrine\InvalidConfiguration;
use Spindle\Bridge\Doctrine\PgsqlDriver;
use Spindle\Database\Pdo\PgsqlConnect;
use Spindle\Database\Pgsql\SslMode;

/**
 * The parameters a DoctrineBundle connection on PostgreSQL hands the driver (from a URL with any of
 * DoctrineBundle's schemes, or given one by one) become the DSN DBAL's own pdo_pgsql driver builds,
 * and Spindle's PDO reads that DSN as libpq does. No server: the parity against one is
 * tests/Integration/Pgsql/DoctrineBundleParamsTest.php.
 */
final class PgsqlDriverTest extends TestCase
{
    /** DoctrineBundle's URL schemes for pdo_pgsql (its ConnectionFactory::DEFAULT_SCHEME_MAP). */
    private const BUNDLE_SCHEMES = ['postgres' => 'pdo_pgsql', 'postgresql' => 'pdo_pgsql', 'pgsql' => 'pdo_pgsql'];

    /** @return iterable<string, array{array<string, mixed>}> */
    public static function params(): iterable
    {
        $parser = new DsnParser(self::BUNDLE_SCHEMES);
        foreach (['postgresql', 'postgres', 'pgsql', 'pdo-pgsql'] as $scheme) {
            yield "$scheme:// URL" => [$parser->parse("$scheme://app:s%3Bcret@db.internal:5433/shop?serverVersion=16&charset=utf8")];
        }
        yield 'URL with TLS and application_name' => [$parser->parse('postgresql://app:pw@db.internal/shop?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem&sslcert=/etc/ssl/c.pem&sslkey=/etc/ssl/c.key&sslcrl=/etc/ssl/crl.pem&application_name=shop&gssencmode=disable')];
        yield 'URL with a socket directory' => [$parser->parse('postgresql://app@localhost/shop?host=/var/run/postgresql&port=5432')];
        yield 'separate parameters' => [['driver' => 'pdo_pgsql', 'host' => '10.0.0.5', 'port' => '6432', 'dbname' => 'shop', 'user' => 'app', 'password' => 'pw', 'sslmode' => 'require', 'application_name' => 'worker', 'charset' => 'UTF8', 'serverVersion' => '15.6']];
        yield 'an integer port' => [['host' => 'db', 'port' => 5432, 'dbname' => 'shop']];
        yield 'empty host and port' => [['host' => '', 'port' => '', 'dbname' => 'shop']];
        yield 'nothing' => [[]];
        // DBAL 3 connects to this one when there is no dbname; DBAL 4 ignores it.
        yield 'default_dbname' => [['host' => 'db', 'default_dbname' => 'template1']];
    }

    /**
     * @dataProvider params
     *
     * @param array<string, mixed> $params
     */
    public function testTheDsnIsTheOneDbalsPdoPgsqlDriverBuilds(array $params): void
    {
        $native = new \ReflectionMethod(PdoPgsqlDriver::class, 'constructPdoDsn');

        self::assertSame($native->invoke(new PdoPgsqlDriver(), $params), PgsqlDriver::dsn($params));
    }

    public function testSpindlesPdoReadsTheDsnAsLibpqDoes(): void
    {
        $params = (new DsnParser(self::BUNDLE_SCHEMES))->parse('postgresql://app:pw@db.internal:5433/shop?sslmode=verify-ca&sslrootcert=/etc/ssl/ca.pem&application_name=shop');
        $config = PgsqlConnect::config(self::dataSource($params), 'app', 'pw', []);

        self::assertSame(['db.internal', 5433, 'shop', 'app', 'pw', SslMode::VerifyCa, '/etc/ssl/ca.pem', ['application_name' => 'shop']], [$config->host, $config->port, $config->database, $config->user, $config->password, $config->sslMode, $config->sslRootCert, $config->parameters]);

        $socket = PgsqlConnect::config(self::dataSource(['host' => '/var/run/postgresql', 'port' => 5433, 'dbname' => 'shop']), '', '', []);
        self::assertTrue($socket->isUnixSocket());
        self::assertSame('/var/run/postgresql/.s.PGSQL.5433', $socket->socketPath());
    }

    /**
     * The DSN after its "pgsql:" prefix, as Pdo hands it on.
     *
     * @param array<string, mixed> $params
     */
    private static function dataSource(array $params): string
    {
        $dsn = PgsqlDriver::dsn($params);
        self::assertStringStartsWith('pgsql:', $dsn);

        return \substr($dsn, 6);
    }

    public function testAParameterOfTheWrongTypeIsADriverError(): void
    {
        try {
            PgsqlDriver::dsn(['host' => ['db1', 'db2']]);
            self::fail('an array host was accepted');
        } catch (InvalidConfiguration $e) {
            self::assertSame('The host connection parameter must be a string or an integer, array given.', $e->getMessage());
        }
        $this->expectException(InvalidConfiguration::class);
        $this->expectExceptionMessage('The password connection parameter must be a string or null, int given.');
        (new PgsqlDriver())->connect(['host' => 'db', 'password' => 1234]);
    }
}
