<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\Cluster\Balancer;
use Spindle\Tests\E2E\Support\Cluster\Host;
use Spindle\Tests\E2E\Support\Cluster\Network;
use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\LoadClients;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * Three Spindle hosts, each in its own network namespace with its own address, behind nginx
 * configured as docs/deploy.md prints it, sessions in MariaDB (tests/fixtures/apps/cluster.php).
 * Under a bounded load (32 keep-alive connections through nginx):
 *
 *   (a) one host is killed (SIGKILL to its master and workers): no request fails;
 *   (b) a rolling deploy: each host in turn stopped gracefully and started with the next
 *       release: no request fails, and every host serves the new release at the end;
 *   (c) a logged-in session is seen by every host, before and after both.
 *
 * The figures go to standard error (docs/benchmarks.md has a run's).
 *
 * @group slow
 */
final class MultiHostTest extends E2ETestCase
{
    private const HOSTS = 3;
    private const CLIENTS = 32;

    private string $dir = '';
    private ?Network $network = null;
    /** @var list<Host> */
    private array $hosts = [];
    private ?Balancer $balancer = null;
    private ?\PDO $db = null;
    private string $table = '';

    protected function tearDown(): void
    {
        foreach ($this->hosts as $host) {
            $host->shutdown();
        }
        $this->hosts = [];
        $this->balancer?->stop();
        $this->network?->remove();
        if ($this->db !== null && $this->table !== '') {
            $this->db->exec('DROP TABLE IF EXISTS ' . $this->table);
        }
        if ($this->dir !== '') {
            \exec('rm -rf ' . \escapeshellarg($this->dir));
        }
    }

    public function testNoRequestFailsWhenAHostDiesOrARollingDeployRuns(): void
    {
        $env = $this->database();
        $this->dir = \sys_get_temp_dir() . '/spindle-cluster-' . \getmypid();
        @\mkdir($this->dir, 0777, true);
        $v1 = $this->release('v1');
        $v2 = $this->release('v2');
        $this->network = Network::create(self::HOSTS);
        for ($i = 1; $i <= self::HOSTS; ++$i) {
            $host = new Host('h' . $i, $this->network->namespace($i), $this->network->address($i), $env, $this->dir);
            $host->start($v1);
            $this->hosts[] = $host;
        }
        $this->waitReady($this->hosts);
        $this->balancer = Balancer::start($this->dir . '/nginx', $this->site(...));
        $port = $this->balancer->port;

        // (c) Log in once, through nginx.
        $jar = $this->dir . '/cookies';
        $login = self::curl(['-s', '-c', $jar, '-d', 'user=alice', 'http://127.0.0.1:' . $port . '/login']);
        self::assertSame('alice', \json_decode($login['out'], true)['user'] ?? null, $login['out'] . $login['err']);
        $this->assertSessionEverywhere($port, $jar, 'v1');

        // (a) SIGKILL one host under load.
        $victim = $this->hosts[1];
        $killedAt = null;
        $load = new LoadClients($port, self::CLIENTS, keepAlive: true, keepRecords: true);
        $started = \microtime(true);
        $load->run(5.0, static function (float $now) use ($victim, $started, &$killedAt): void {
            if ($killedAt === null && $now - $started >= 1.5) {
                $victim->kill();
                $killedAt = $now;
            }
        });
        self::assertNotNull($killedAt);
        self::assertTrue(self::eventually($victim->hasExited(...), 5.0), 'the killed host is gone');
        $this->report('kill one host', $load, 5.0);
        self::assertSame(0, $load->failed + $load->socketErrors, 'no failed request reaches the client: ' . $load->summary() . "\n" . $this->balancer->errors());
        self::assertGreaterThan(100, $load->ok);
        self::assertGreaterThan(0, $this->servedAfter($load, $killedAt), 'the cluster kept serving');

        // The host comes back (as its supervisor would restart it).
        $victim->start($v1);
        $this->waitReady([$victim]);
        $this->assertSessionEverywhere($port, $jar, 'v1');

        // (b) Rolling deploy of v2 under load: stop a host gracefully, start it on v2, wait until
        // the balancer sends it requests again, then the next host.
        $steps = [];
        foreach ($this->hosts as $host) {
            $steps[] = ['stop', $host];
            $steps[] = ['exited', $host];
            $steps[] = ['start', $host];
            $steps[] = ['ready', $host];
            $steps[] = ['serving', $host];
        }
        $load = new LoadClients($port, self::CLIENTS, keepAlive: true, keepRecords: true);
        $deployStarted = \microtime(true) + 1.0;
        $deployed = null;
        $load->run(30.0, static function (float $now) use (&$steps, $v2, $load, $deployStarted, &$deployed): void {
            if ($now < $deployStarted || $steps === []) {
                return;
            }
            [$step, $host] = $steps[0];
            $done = match ($step) {
                'stop' => (static function () use ($host): bool {
                    $host->stop();

                    return true;
                })(),
                'exited' => $host->hasExited(),
                'serving' => \array_intersect_key($load->pids, \array_flip($host->workerPids())) !== [],
                'start' => (static function () use ($host, $v2): bool {
                    $host->start($v2);

                    return true;
                })(),
                default => $host->isReady(),
            };
            if ($done) {
                \array_shift($steps);
                if ($steps === []) {
                    $deployed = $now;
                    $load->stopAt($now + 1.0);
                }
            }
        });
        self::assertNotNull($deployed, 'the deploy finished within the load: ' . \implode(' | ', \array_map(static fn (Host $h): string => $h->log(), $this->hosts)));
        $this->report(\sprintf('rolling deploy (%.1f s)', $deployed - $deployStarted), $load, \microtime(true) - $deployStarted + 1.0);
        self::assertSame(0, $load->failed + $load->socketErrors, 'no failed request during the deploy: ' . $load->summary() . "\n" . $this->balancer->errors());

        foreach ($this->hosts as $host) {
            $direct = self::curl(['-s', 'http://' . $host->address . ':' . Host::PORT . '/']);
            self::assertSame('v2', \json_decode($direct['out'], true)['version'] ?? null, $host->name . ' serves the new release: ' . $direct['out'] . $direct['err']);
        }
        // (c) The session, made on v1 before any of this, is still good on every host.
        $this->assertSessionEverywhere($port, $jar, 'v2');
    }

    /** @return array<string, string> the app's environment for the session store */
    private function database(): array
    {
        $dir = \getenv('SPINDLE_MYSQL_DIR');
        $file = ($dir === false || $dir === '' ? '/tmp/spindle-mariadb' : $dir) . '/env';
        if (!\is_file($file)) {
            self::markTestSkipped("No MariaDB for the session store: $file is missing (scripts/test starts it)");
        }
        $env = [];
        foreach (\file($file, \FILE_IGNORE_NEW_LINES) ?: [] as $line) {
            if (\preg_match('/^(?:export\s+)?([A-Z_0-9]+)=(.*)$/', $line, $m) === 1) {
                $env[$m[1]] = $m[2];
            }
        }
        // The hosts reach the database through its unix socket: a file, seen from every namespace.
        $dsn = 'mysql:host=localhost;unix_socket=' . $env['MYSQL_SOCKET'] . ';dbname=' . $env['MYSQL_DATABASE'];
        $this->db = new \PDO($dsn, $env['MYSQL_USER'], $env['MYSQL_PASSWORD'], [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        $this->table = 'spindle_cluster_sessions_' . \getmypid();
        $this->db->exec("CREATE TABLE {$this->table} (id CHAR(32) PRIMARY KEY, user VARCHAR(64) NOT NULL)");

        return [
            'SPINDLE_SESSION_DSN' => $dsn,
            'SPINDLE_SESSION_USER' => $env['MYSQL_USER'],
            'SPINDLE_SESSION_PASSWORD' => $env['MYSQL_PASSWORD'],
            'SPINDLE_SESSION_TABLE' => $this->table,
        ];
    }

    /** A release directory: the app and its VERSION. */
    private function release(string $version): string
    {
        $dir = $this->dir . '/releases/' . $version;
        @\mkdir($dir, 0777, true);
        \copy(ServerProcess::fixture('cluster.php'), $dir . '/app.php');
        \file_put_contents($dir . '/VERSION', $version . "\n");

        return $dir . '/app.php';
    }

    /** The upstream and server blocks of docs/deploy.md, with this test's addresses. */
    private function site(int $port): string
    {
        $docs = (string) \file_get_contents(\dirname(__DIR__, 2) . '/docs/deploy.md');
        self::assertSame(1, \preg_match('/```nginx\n(.*?)```/s', $docs, $m), 'docs/deploy.md has an nginx block');
        \assert($this->network !== null);
        $replace = ['listen 80;' => 'listen 127.0.0.1:' . $port . ';'];
        for ($i = 1; $i <= self::HOSTS; ++$i) {
            // A shorter passive-check pause than the documented 5 s, so that the test need not
            // wait as long for a restarted host to get requests again.
            $replace['server 10.0.0.1' . $i . ':8080 max_fails=1 fail_timeout=5s;'] = 'server ' . $this->network->address($i) . ':' . Host::PORT . ' max_fails=1 fail_timeout=1s;';
        }
        $site = \strtr($m[1], $replace);
        foreach ($replace as $new) {
            self::assertStringContainsString($new, $site, 'the documented block has the line the test replaces');
        }

        return $site;
    }

    /** @param list<Host> $hosts */
    private function waitReady(array $hosts): void
    {
        $ready = self::eventually(static function () use ($hosts): bool {
            foreach ($hosts as $host) {
                if (!$host->isReady()) {
                    return false;
                }
            }

            return true;
        }, 15.0);
        self::assertTrue($ready, 'the hosts started: ' . \implode("\n", \array_map(static fn (Host $h): string => $h->name . ': ' . $h->log(), $hosts)));
    }

    /**
     * GET /me through nginx until every host answered it (nginx gives a host that failed a
     * request again after fail_timeout): the same user each time.
     */
    private function assertSessionEverywhere(int $port, string $jar, string $version): void
    {
        $hosts = [];
        $deadline = \microtime(true) + 5.0;
        while (\count($hosts) < self::HOSTS && \microtime(true) < $deadline) {
            $me = self::curl(['-s', '-b', $jar, 'http://127.0.0.1:' . $port . '/me']);
            $data = \json_decode($me['out'], true);
            self::assertIsArray($data, $me['out'] . $me['err']);
            self::assertSame('alice', $data['user'], 'the session holds on ' . ($data['host'] ?? '?'));
            self::assertSame($version, $data['version']);
            $hosts[(string) $data['host']] = true;
        }
        self::assertCount(self::HOSTS, $hosts, 'every host served the session');
    }

    private function servedAfter(LoadClients $load, float $time): int
    {
        return \count(\array_filter($load->records, static fn (array $r): bool => $r['start'] > $time && $r['status'] === 200));
    }

    private function report(string $scenario, LoadClients $load, float $seconds): void
    {
        \assert($this->balancer !== null);
        $retried = [];
        foreach ($this->balancer->upstreamErrors() as $kind => $count) {
            $retried[] = "{$count} × {$kind}";
        }
        \fwrite(\STDERR, \sprintf(
            "\n[multi-host] %s: %d requests through nginx in %.1f s (%.0f req/s), %d failed, %d socket errors, p99 %.1f ms, max %.1f ms; upstream errors nginx passed on: %s\n",
            $scenario,
            $load->total(),
            $seconds,
            $load->total() / $seconds,
            $load->failed,
            $load->socketErrors,
            $load->percentile(99) * 1000,
            $load->percentile(100) * 1000,
            $retried === [] ? 'none' : \implode(', ', $retried),
        ));
    }
}
