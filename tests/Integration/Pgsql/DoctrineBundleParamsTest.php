<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use Doctrine\DBAL\Configuration;
use Doctrine\DBAL\DriverManager;
use Doctrine\DBAL\Tools\DsnParser;
use Spindle\Bridge\Doctrine\DriverMiddleware;
use Spindle\Bridge\Doctrine\PgsqlDriver;
use Spindle\Database\Pdo;

/**
 * Every way a DoctrineBundle connection on PostgreSQL is configured (a URL with each of the
 * bundle's schemes, parameters given one by one, TLS, a socket directory, application_name,
 * charset, server version, driver options), made once with DBAL's own pdo_pgsql driver and once
 * through Spindle's middleware in a worker: the same session on the private PostgreSQL (database,
 * user, TLS, client encoding, application name, platform, prepares) and the same connect errors.
 */
final class DoctrineBundleParamsTest extends PgsqlTestCase
{
    /** DoctrineBundle's URL schemes for pdo_pgsql (its ConnectionFactory::DEFAULT_SCHEME_MAP). */
    private const BUNDLE_SCHEMES = ['postgres' => 'pdo_pgsql', 'postgresql' => 'pdo_pgsql', 'pgsql' => 'pdo_pgsql'];

    /**
     * The connection's parameters as DoctrineBundle's ConnectionFactory hands them to DBAL: the
     * URL parsed and merged over the parameters given beside it.
     *
     * @param array<string, mixed> $params
     *
     * @return array<string, mixed>
     */
    private static function bundleParams(array $params): array
    {
        if (isset($params['url']) && \is_string($params['url'])) {
            $url = $params['url'];
            unset($params['url']);
            $params = \array_merge($params, (new DsnParser(self::BUNDLE_SCHEMES))->parse($url));
        }

        return $params;
    }

    /** @return iterable<string, array{array<string, mixed>}> */
    public static function configurations(): iterable
    {
        $env = self::env();
        $credentials = \rawurlencode($env['PGSQL_USER']) . ':' . \rawurlencode($env['PGSQL_PASSWORD']);
        $server = $env['PGSQL_HOST'] . ':' . $env['PGSQL_PORT'];
        $db = $env['PGSQL_DATABASE'];
        yield 'postgresql:// with serverVersion and charset (the recipe)' => [['url' => "postgresql://$credentials@$server/$db?serverVersion=16&charset=utf8"]];
        yield 'postgres://' => [['url' => "postgres://$credentials@$server/$db"]];
        yield 'pgsql:// with sslmode=require and application_name' => [['url' => "pgsql://$credentials@$server/$db?sslmode=require&application_name=shop"]];
        yield 'pdo-pgsql:// with sslmode=disable' => [['url' => "pdo-pgsql://$credentials@$server/$db?sslmode=disable"]];
        yield 'the socket directory as the host query parameter' => [['url' => "postgresql://$credentials@localhost/$db?host=" . \rawurlencode($env['PGSQL_SOCKET_DIR']) . '&port=' . $env['PGSQL_PORT']]];
        yield 'a URL beside parameters it overrides' => [['url' => "postgresql://$credentials@$server/$db", 'host' => 'db.invalid', 'application_name' => 'kept', 'charset' => 'LATIN1']];
        yield 'parameters one by one, verify-full' => [[
            'driver' => 'pdo_pgsql',
            'host' => 'localhost',
            'port' => $env['PGSQL_PORT'],
            'dbname' => $db,
            'user' => $env['PGSQL_USER'],
            'password' => $env['PGSQL_PASSWORD'],
            'sslmode' => 'verify-full',
            'sslrootcert' => $env['PGSQL_TLS_CERT'],
            'application_name' => 'bundle',
            'charset' => 'UTF8',
            'serverVersion' => '15',
        ]];
        yield 'driver options (prepares on, a connect timeout)' => [['url' => "postgresql://$credentials@$server/$db", 'driverOptions' => [\PDO::PGSQL_ATTR_DISABLE_PREPARES => false, \PDO::ATTR_TIMEOUT => 3]]];
    }

    /**
     * @dataProvider configurations
     *
     * @param array<string, mixed> $params
     */
    public function testTheSameSessionAsDbalsOwnDriver(array $params): void
    {
        $params = self::bundleParams($params);
        $native = self::session($params, false);
        $spindle = self::session($params, true);

        self::assertSame(\PDO::class, $native['pdo'] ?? null, \json_encode($native, \JSON_THROW_ON_ERROR));
        self::assertSame(Pdo::class, $spindle['pdo'] ?? null, \json_encode($spindle, \JSON_THROW_ON_ERROR));
        self::assertSame(PgsqlDriver::class, $spindle['driver']);
        unset($native['pdo'], $native['driver'], $spindle['pdo'], $spindle['driver']);
        self::assertSame($native, $spindle);
    }

    /** @return iterable<string, array{string}> */
    public static function failingUrls(): iterable
    {
        $env = self::env();
        $server = $env['PGSQL_HOST'] . ':' . $env['PGSQL_PORT'];
        $credentials = \rawurlencode($env['PGSQL_USER']) . ':' . \rawurlencode($env['PGSQL_PASSWORD']);
        yield 'a wrong password' => ["postgresql://{$env['PGSQL_USER']}:wrong@$server/{$env['PGSQL_DATABASE']}?sslmode=disable"];
        yield 'no such database' => ["postgresql://$credentials@$server/spindle_no_such_db"];
        // No user in the URL: DBAL passes '', which libpq takes as the OS user's name.
        yield 'no user' => ["postgresql://:wrong@$server/{$env['PGSQL_DATABASE']}?sslmode=disable"];
        yield 'an unknown sslmode' => ["postgresql://$credentials@$server/{$env['PGSQL_DATABASE']}?sslmode=sometimes"];
    }

    /** @dataProvider failingUrls */
    public function testTheSameConnectErrorsAsDbalsOwnDriver(string $url): void
    {
        $params = self::bundleParams(['url' => $url]);
        $native = self::session($params, false);

        self::assertArrayHasKey('error', $native);
        self::assertSame($native, self::session($params, true));
    }

    /**
     * What the connection's session is, or the exception connecting raised.
     *
     * @param array<string, mixed> $params
     *
     * @return array<string, mixed>
     */
    private static function session(array $params, bool $spindle): array
    {
        $configuration = new Configuration();
        if ($spindle) {
            $configuration->setMiddlewares([new DriverMiddleware(inWorker: static fn (): bool => true)]);
        }
        $connection = DriverManager::getConnection($params, $configuration); // @phpstan-ignore argument.type
        try {
            $session = $connection->fetchAssociative(
                "SELECT current_database() AS database, current_user AS user, current_setting('application_name') AS application_name,
                        current_setting('client_encoding') AS encoding, inet_server_port() AS port,
                        (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS tls,
                        1.5::numeric AS numeric, true AS bool, 7 AS int, NULL AS null",
            );
            self::assertIsArray($session);
            $pdo = $connection->getNativeConnection();
            self::assertInstanceOf(\PDO::class, $pdo);
            $session['pdo'] = $pdo::class;
            $session['driver'] = $connection->getDriver()::class;
            $session['platform'] = $connection->getDatabasePlatform()::class;
            $session['disable prepares'] = $pdo->getAttribute(\PDO::PGSQL_ATTR_DISABLE_PREPARES);
            $session['prepared'] = $connection->fetchOne('SELECT ?::int + 1', [41]);

            return $session;
        } catch (\Doctrine\DBAL\Exception $e) {
            return ['error' => $e::class, 'message' => $e->getMessage(), 'code' => $e->getCode()];
        } finally {
            $connection->close();
        }
    }
}
