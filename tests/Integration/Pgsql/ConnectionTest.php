<?php

declare(strict_types=1);

namespace Spindle\Tests\Integration\Pgsql;

use Revolt\EventLoop;
use Spindle\Database\Pgsql\Bytea;
use Spindle\Database\Pgsql\Connection;
use Spindle\Database\Pgsql\PgsqlException;
use Spindle\Database\Pgsql\Protocol\TransactionStatus;
use Spindle\Database\Pgsql\SslMode;

final class ConnectionTest extends PgsqlTestCase
{
    public function testAuthenticationMethods(): void
    {
        $env = self::env();
        foreach (['PGSQL_USER', 'PGSQL_MD5_USER', 'PGSQL_CLEARTEXT_USER', 'PGSQL_TRUST_USER'] as $key) {
            $connection = $this->connect(['user' => $env[$key]]);
            self::assertSame([[$env[$key]]], $connection->query('SELECT current_user')[0]->values(), $key);
            self::assertGreaterThan(0, $connection->processId());
            self::assertSame('UTF8', $connection->parameter('client_encoding'));
        }
    }

    public function testWrongPasswordIsRefusedWithTheServersMessage(): void
    {
        foreach (['PGSQL_USER', 'PGSQL_MD5_USER', 'PGSQL_CLEARTEXT_USER'] as $key) {
            try {
                $this->connect(['user' => self::env()[$key], 'password' => 'wrong']);
                self::fail('connected with a wrong password');
            } catch (PgsqlException $e) {
                self::assertStringContainsString('password authentication failed for user "' . self::env()[$key] . '"', $e->getMessage());
                self::assertSame('08006', $e->sqlState);
            }
        }
    }

    public function testUnixSocket(): void
    {
        $connection = $this->connect(['host' => self::env()['PGSQL_SOCKET_DIR']]);
        self::assertSame([[3]], $connection->query('SELECT 1 + 2')[0]->values());
        self::assertFalse($connection->isTls());
    }

    public function testTlsModes(): void
    {
        $env = self::env();
        self::assertFalse($this->connect(['sslMode' => SslMode::Disable])->isTls());
        self::assertTrue($this->connect(['sslMode' => SslMode::Prefer])->isTls());
        $required = $this->connect(['sslMode' => SslMode::Require]);
        self::assertTrue($required->isTls());
        self::assertSame([[true]], $required->query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')[0]->values());
        self::assertTrue($this->connect(['sslMode' => SslMode::VerifyFull, 'sslRootCert' => $env['PGSQL_TLS_CERT']])->isTls());
        self::assertTrue($this->connect(['sslMode' => SslMode::VerifyCa, 'sslRootCert' => $env['PGSQL_TLS_CERT']])->isTls());
        try {
            // The system's CAs did not sign the test server's certificate.
            $this->connect(['sslMode' => SslMode::VerifyFull, 'sslRootCert' => '/etc/ssl/certs/ca-certificates.crt']);
            self::fail('verify-full accepted a certificate no trusted CA signed');
        } catch (PgsqlException $e) {
            self::assertStringContainsString('SSL', $e->getMessage());
        }
    }

    public function testSimpleQueryResultsAndErrors(): void
    {
        $c = $this->connect();
        $results = $c->query("SELECT 1 AS a, 'x' AS b; SELECT NULL::int AS n; CREATE TEMP TABLE t (id serial, v text); INSERT INTO t (v) VALUES ('a'), ('b')");
        self::assertCount(4, $results);
        self::assertSame([['a' => 1, 'b' => 'x']], $results[0]->assoc());
        self::assertSame([[null]], $results[1]->values());
        self::assertSame('CREATE TABLE', $results[2]->tag);
        self::assertSame(2, $results[3]->affectedRows());
        self::assertSame('INSERT', $results[3]->command());

        try {
            $c->query('SELECT * FROM missing_table');
            self::fail('no error');
        } catch (PgsqlException $e) {
            self::assertSame('42P01', $e->sqlState);
            self::assertSame("ERROR:  relation \"missing_table\" does not exist\nLINE 1: SELECT * FROM missing_table\n                      ^", $e->getMessage());
            self::assertSame(15, $e->server?->position());
        }
        try {
            $c->query("CREATE TEMP TABLE u (id int PRIMARY KEY); INSERT INTO u VALUES (1); INSERT INTO u VALUES (1)");
            self::fail('no error');
        } catch (PgsqlException $e) {
            self::assertSame('23505', $e->sqlState);
            self::assertSame('Key (id)=(1) already exists.', $e->server?->detail());
            self::assertStringContainsString("\nDETAIL:  Key (id)=(1) already exists.", $e->getMessage());
        }
        // The session survives server errors.
        self::assertSame([[2]], $c->query('SELECT 2')[0]->values());
        self::assertSame([], $c->query('')[0]->rows);
    }

    public function testErrorHintAndNotices(): void
    {
        $c = $this->connect();
        try {
            $c->query('SELECT lenght(1)');
            self::fail('no error');
        } catch (PgsqlException $e) {
            self::assertSame('42883', $e->sqlState);
            self::assertNotNull($e->server?->hint());
            self::assertStringContainsString("\nHINT:  ", $e->getMessage());
        }
        $c->query("DO \$\$ BEGIN RAISE NOTICE 'hello %', 42; END \$\$");
        self::assertSame('hello 42', $c->notices()[0]->message());
    }

    public function testExtendedQueryTextAndBinary(): void
    {
        $c = $this->connect();
        $sql = "SELECT \$1::int4 AS i, \$2::int8 AS big, \$3::text AS t, \$4::float8 AS f, \$5::bool AS b, \$6::bytea AS bin, \$7::numeric AS n,
            '2024-02-29 13:14:15.5'::timestamp AS ts, '2024-02-29'::date AS d, '13:14:15'::time AS tm,
            '550e8400-e29b-41d4-a716-446655440000'::uuid AS u, '{\"a\": [1, 2]}'::jsonb AS j, '{\"k\":1}'::json AS js,
            ARRAY[1, NULL, 3] AS arr, ARRAY['a b', 'c\"d'] AS tarr, -123.4500::numeric(10,4) AS neg, 1e-7::numeric AS small,
            'NaN'::float8 AS nan, \$8::text AS nul";
        $params = [-7, PHP_INT_MAX, "it's", 0.1, false, new Bytea("\x00\xFF"), '12345678901234567890.000001', null];
        $text = $c->execute($sql, $params)->assoc()[0];
        $binary = $c->execute($sql, $params, true)->assoc()[0];
        $expected = [
            'i' => -7, 'big' => PHP_INT_MAX, 't' => "it's", 'f' => 0.1, 'b' => false, 'bin' => "\x00\xFF",
            'n' => '12345678901234567890.000001', 'ts' => '2024-02-29 13:14:15.5', 'd' => '2024-02-29', 'tm' => '13:14:15',
            'u' => '550e8400-e29b-41d4-a716-446655440000', 'j' => '{"a": [1, 2]}', 'js' => '{"k":1}',
            'arr' => '{1,NULL,3}', 'tarr' => '{"a b","c\"d"}', 'neg' => '-123.4500', 'small' => '0.0000001',
        ];
        foreach ($expected as $name => $value) {
            self::assertSame($value, $text[$name], "text $name");
            self::assertSame($value, $binary[$name], "binary $name");
        }
        self::assertNan($text['nan']);
        self::assertNan($binary['nan']);
        self::assertNull($text['nul']);
        self::assertNull($binary['nul']);
    }

    public function testTimestamptzInBinaryIsUtc(): void
    {
        $c = $this->connect();
        $c->query("SET TIME ZONE 'UTC'");
        $sql = "SELECT '2020-05-06 07:08:09.123456+02'::timestamptz AS t, '1970-01-01 00:00:00+00'::timestamptz AS e";
        self::assertSame($c->execute($sql)->assoc(), $c->execute($sql, [], true)->assoc());
    }

    public function testNamedStatements(): void
    {
        $c = $this->connect();
        $statement = $c->prepare('SELECT $1::int * 2 AS doubled, $2::text AS label');
        self::assertSame([23, 25], $statement->parameterTypes);
        self::assertSame(['doubled', 'label'], array_map(static fn ($f) => $f->name, $statement->fields));
        for ($i = 0; $i < 3; ++$i) {
            self::assertSame([['doubled' => $i * 2, 'label' => "n$i"]], $c->executePrepared($statement, [$i, "n$i"])->assoc());
        }
        self::assertSame([[$i * 2, "n$i"]], $c->executePrepared($statement, [$i, "n$i"], true)->values());
        $c->closeStatement($statement);
        $this->expectException(PgsqlException::class);
        $this->expectExceptionMessage('prepared statement "' . $statement->name . '" does not exist');
        $c->executePrepared($statement, [1, 'x']);
    }

    public function testTransactionStatus(): void
    {
        $c = $this->connect();
        self::assertSame(TransactionStatus::Idle, $c->transactionStatus());
        $c->query('BEGIN');
        self::assertSame(TransactionStatus::InTransaction, $c->transactionStatus());
        try {
            $c->query('SELECT 1/0');
        } catch (PgsqlException $e) {
            self::assertSame('22012', $e->sqlState);
        }
        self::assertSame(TransactionStatus::Failed, $c->transactionStatus());
        $c->query('ROLLBACK');
        self::assertSame(TransactionStatus::Idle, $c->transactionStatus());
    }

    public function testCopyFromAndTo(): void
    {
        $c = $this->connect();
        $c->query('CREATE TEMP TABLE c (id int, name text)');
        $rows = (static function () {
            for ($i = 1; $i <= 1000; ++$i) {
                yield "$i\tname $i\n";
            }
        })();
        self::assertSame(1000, $c->copyFrom('COPY c FROM STDIN', $rows));
        $out = $c->copyTo('COPY (SELECT * FROM c WHERE id <= 3 ORDER BY id) TO STDOUT');
        self::assertSame(["1\tname 1\n", "2\tname 2\n", "3\tname 3\n"], $out);
        try {
            $c->copyFrom('COPY c FROM STDIN', ["not-a-number\tx\n"]);
            self::fail('no error');
        } catch (PgsqlException $e) {
            self::assertSame('22P02', $e->sqlState);
        }
        // A COPY FROM run through query() is refused by the client, not left hanging.
        try {
            $c->query('COPY c FROM STDIN');
            self::fail('no error');
        } catch (PgsqlException $e) {
            self::assertSame('57014', $e->sqlState);
        }
        self::assertSame([[1000]], $c->query('SELECT count(*) FROM c')[0]->values());
    }

    public function testQueryTimeoutCancelsAndKeepsTheSession(): void
    {
        $c = $this->connect(['queryTimeout' => 0.3]);
        $started = hrtime(true);
        try {
            $c->query('SELECT pg_sleep(30)');
            self::fail('no timeout');
        } catch (PgsqlException $e) {
            self::assertSame('57014', $e->sqlState);
            self::assertStringContainsString('query timed out after 0.3 s', $e->getMessage());
        }
        self::assertLessThan(15.0, (hrtime(true) - $started) / 1e9);
        self::assertFalse($c->isBroken());
        self::assertSame([[1]], $c->query('SELECT 1')[0]->values());
    }

    public function testFibersWaitConcurrently(): void
    {
        $connections = [];
        for ($i = 0; $i < 5; ++$i) {
            $connections[] = $this->connect();
        }
        $done = [];
        $started = hrtime(true);
        foreach ($connections as $i => $connection) {
            EventLoop::queue(static function () use ($connection, $i, &$done): void {
                $done[$i] = $connection->query('SELECT pg_sleep(1), ' . $i)[0]->values()[0][1];
            });
        }
        EventLoop::run();
        ksort($done);
        self::assertSame([0, 1, 2, 3, 4], $done);
        // Five one-second sleeps, one after another, would take five seconds.
        self::assertLessThan(4.0, (hrtime(true) - $started) / 1e9);
    }

    public function testOneCommandAtATime(): void
    {
        $c = $this->connect();
        $error = null;
        EventLoop::queue(static function () use ($c): void {
            $c->query('SELECT pg_sleep(0.2)');
        });
        EventLoop::queue(static function () use ($c, &$error): void {
            try {
                $c->query('SELECT 1');
            } catch (PgsqlException $e) {
                $error = $e->getMessage();
            }
        });
        EventLoop::run();
        self::assertSame('another command is already in progress', $error);
        self::assertSame([[1]], $c->query('SELECT 1')[0]->values());
    }

    public function testListenNotify(): void
    {
        $listener = $this->connect();
        $sender = $this->connect();
        $listener->listen('spindle events');
        $received = [];
        EventLoop::queue(static function () use ($listener, &$received): void {
            foreach ($listener->notifications(10.0) as $notification) {
                $received[] = [$notification->channel, $notification->payload];
                if (\count($received) === 3) {
                    break;
                }
            }
        });
        EventLoop::queue(static function () use ($sender): void {
            foreach (['one', 'two', 'three'] as $payload) {
                $sender->query("NOTIFY \"spindle events\", '$payload'");
            }
        });
        EventLoop::run();
        self::assertSame([['spindle events', 'one'], ['spindle events', 'two'], ['spindle events', 'three']], $received);
        self::assertSame($sender->processId() > 0, true);
        self::assertFalse($listener->isBroken());
    }

    public function testNotificationsEndAfterTheTimeout(): void
    {
        $c = $this->connect();
        $c->listen('quiet');
        $started = hrtime(true);
        self::assertSame([], iterator_to_array($c->notifications(0.2)));
        self::assertGreaterThanOrEqual(0.2, (hrtime(true) - $started) / 1e9);
    }

    public function testServerTerminatingTheSessionBreaksIt(): void
    {
        $victim = $this->connect();
        $killer = $this->connect();
        $killer->query('SELECT pg_terminate_backend(' . $victim->processId() . ')');
        try {
            $victim->query('SELECT 1');
            self::fail('no error');
        } catch (PgsqlException $e) {
            self::assertTrue($victim->isBroken());
        }
        $this->expectException(PgsqlException::class);
        $this->expectExceptionMessage('no connection to the server');
        $victim->query('SELECT 1');
    }

    public function testRefusedConnection(): void
    {
        $this->expectException(PgsqlException::class);
        $this->expectExceptionMessage('connection to server at "127.0.0.1", port 1 failed');
        Connection::connect(self::config(['port' => 1]));
    }
}
