<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E;

use Spindle\Tests\E2E\Support\E2ETestCase;
use Spindle\Tests\E2E\Support\ServerProcess;

/**
 * The configurations docs/deploy.md prints, checked as far as they can run on this machine:
 * the systemd unit with `systemd-analyze verify` and its command started with a notify socket;
 * the Dockerfile's base against this Debian, its packages in this Debian's archive, its
 * Composer step as a dry run and its command and health check run here; the Kubernetes
 * manifests with yamllint and a structural check (kubeconform and the API schemas are not in
 * Debian: the check reads the manifests and compares probes, ports, labels and the grace period
 * with the server's options), the container's arguments run here and probed.
 */
final class DeployDocsTest extends E2ETestCase
{
    private string $dir = '';

    protected function setUp(): void
    {
        $this->dir = \sys_get_temp_dir() . '/spindle-deploy-docs-' . \getmypid() . '-' . \bin2hex(\random_bytes(3));
        \mkdir($this->dir);
    }

    protected function tearDown(): void
    {
        \exec('rm -rf ' . \escapeshellarg($this->dir));
    }

    private static function block(string $language): string
    {
        $docs = (string) \file_get_contents(\dirname(__DIR__, 2) . '/docs/deploy.md');
        self::assertSame(1, \preg_match('/```' . $language . '\n(.*?)```/s', $docs, $m), "docs/deploy.md has a {$language} block");

        return $m[1];
    }

    /**
     * Runs a command without a shell; returns exit code and output.
     *
     * @param list<string> $command
     *
     * @return array{int, string}
     */
    private static function exec(array $command, ?string $cwd = null): array
    {
        $process = \proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, $cwd);
        self::assertIsResource($process);
        $out = (string) \stream_get_contents($pipes[1]);
        \fclose($pipes[1]);

        return [\proc_close($process), $out];
    }

    /**
     * Starts the documented server arguments here: the app, address, ports and paths are this
     * machine's; every other option is as documented.
     *
     * @param list<string> $arguments what follows the binary: serve, the app, the options
     */
    private function serve(array $arguments): ServerProcess
    {
        $options = [];
        foreach (\array_slice($arguments, 2) as $argument) {
            if (\str_starts_with($argument, '--host=') || \str_starts_with($argument, '--port=')) {
                continue;
            }
            $argument = \preg_replace('/^--metrics=.*$/', '--metrics=127.0.0.1:0', $argument) ?? $argument;
            $argument = \preg_replace('/^--(pid-file|access-log)=\/.*$/', '--$1=' . $this->dir . '/$1', $argument) ?? $argument;
            $options[] = $argument;
        }

        return ServerProcess::start(\dirname(__DIR__, 2) . '/examples/hello.php', $options);
    }

    private static function metricsPort(ServerProcess $server): int
    {
        self::assertTrue($server->waitForLog('Metrics on http://', 5.0), $server->stderr());
        self::assertSame(1, \preg_match('#Metrics on http://127\.0\.0\.1:(\d+)/#', $server->stderr(), $m));

        return (int) $m[1];
    }

    /** @return array<string, string> "--name" => value of the documented options */
    private static function options(string $commandLine): array
    {
        \preg_match_all('/--([a-z-]+)=(\S+)/', $commandLine, $matches, \PREG_SET_ORDER);
        $options = [];
        foreach ($matches as $m) {
            $options[$m[1]] = \trim($m[2], '",');
        }

        return $options;
    }

    public function testTheSystemdUnitVerifiesAndItsServerNotifiesReadiness(): void
    {
        $unit = self::block('ini');
        self::assertSame(1, \preg_match('/^ExecStart=(\S+) serve (.*)$/m', $unit, $m));
        $options = self::options($m[2]);
        self::assertSame(1, \preg_match('/^TimeoutStopSec=(\d+)$/m', $unit, $t));
        self::assertGreaterThan((float) $options['drain-timeout'], (float) $t[1], 'TimeoutStopSec leaves the drain its time');
        self::assertStringContainsString("Type=notify\n", $unit);
        self::assertStringContainsString('ExecReload=/bin/kill -HUP $MAINPID', $unit);

        if (!\is_executable('/usr/bin/systemd-analyze')) {
            self::markTestIncomplete('systemd-analyze is not installed: the unit was not verified');
        }
        $root = \dirname(__DIR__, 2);
        $local = \strtr($unit, [
            '/srv/app/vendor/bin/spindle' => $root . '/bin/spindle',
            '/srv/app/app.php' => $root . '/examples/hello.php',
            'WorkingDirectory=/srv/app' => 'WorkingDirectory=' . $root,
        ]);
        \file_put_contents($this->dir . '/spindle.service', $local);
        [$code, $out] = self::exec(['/usr/bin/systemd-analyze', 'verify', $this->dir . '/spindle.service']);
        self::assertSame(0, $code, $out);
        self::assertStringNotContainsString('spindle.service:', $out, 'no warning about the unit: ' . $out);

        // The command, with a notify socket as systemd gives it: READY=1 once it serves.
        $path = $this->dir . '/notify.sock';
        $socket = \socket_create(\AF_UNIX, \SOCK_DGRAM, 0);
        self::assertNotFalse($socket);
        self::assertTrue(\socket_bind($socket, $path));
        \putenv('NOTIFY_SOCKET=' . $path);
        try {
            $server = $this->serve(\explode(' ', 'serve ' . $m[2]));
        } finally {
            \putenv('NOTIFY_SOCKET');
        }
        \socket_set_option($socket, \SOL_SOCKET, \SO_RCVTIMEO, ['sec' => 5, 'usec' => 0]);
        $received = (int) \socket_recvfrom($socket, $message, 4096, 0, $from);
        self::assertGreaterThan(0, $received);
        self::assertIsString($message);
        self::assertStringContainsString("READY=1\nMAINPID=" . $server->pid(), $message);
        $server->signal(\SIGHUP);
        \socket_recvfrom($socket, $reloading, 4096, 0, $from);
        self::assertSame('RELOADING=1', $reloading);
        \socket_recvfrom($socket, $reloaded, 4096, 0, $from);
        self::assertSame('READY=1', $reloaded, 'ready again once the new generation serves');
        $server->signal(\SIGTERM);
        \socket_recvfrom($socket, $stopping, 4096, 0, $from);
        self::assertSame('STOPPING=1', $stopping);
        self::assertSame(0, $server->waitForExit(10.0));
        \socket_close($socket);
    }

    public function testTheDockerfileStepsHoldOnThisDebian(): void
    {
        $dockerfile = self::block('dockerfile');
        self::assertSame(1, \preg_match('/^FROM debian:(\w+)/m', $dockerfile, $from));
        $release = (string) @\file_get_contents('/etc/os-release');
        if (\preg_match('/^VERSION_CODENAME=(\w+)/m', $release, $codename) !== 1) {
            self::markTestSkipped('Not a Debian machine: the Dockerfile steps cannot be checked here');
        }
        self::assertSame($codename[1], $from[1], 'the image is the Debian these tests run on');

        // The packages exist in this Debian, and give the extensions Spindle needs.
        self::assertSame(1, \preg_match('/apt-get install -y --no-install-recommends ([^\\\\&\n]+)/', $dockerfile, $install));
        $packages = \preg_split('/\s+/', \trim($install[1])) ?: [];
        self::assertContains('php8.2-cli', $packages);
        foreach ($packages as $package) {
            [$code, $out] = self::exec(['apt-cache', 'show', '--no-all-versions', $package]);
            self::assertSame(0, $code, "{$package} is in this Debian's archive: {$out}");
        }
        [, $cliFiles] = self::exec(['dpkg', '-L', 'php8.2-cli']);
        [$code] = self::exec(['php', '-r', 'exit(extension_loaded("pcntl") && extension_loaded("posix") && extension_loaded("sockets") ? 0 : 1);']);
        self::assertSame(0, $code, 'pcntl (built into php8.2-cli), posix and sockets (php8.2-common) are loaded: ' . \substr($cliFiles, 0, 200));

        // The Composer step, as a dry run in this checkout.
        self::assertSame(1, \preg_match('/^RUN (composer install .*)$/m', $dockerfile, $composer));
        [$code, $out] = self::exec([...\explode(' ', $composer[1]), '--dry-run'], \dirname(__DIR__, 2));
        self::assertSame(0, $code, $out);

        // The command and the health check.
        self::assertSame(1, \preg_match('/^CMD (\[.*\])$/m', $dockerfile, $cmd));
        $arguments = \json_decode($cmd[1], true);
        self::assertIsArray($arguments);
        self::assertSame(['vendor/bin/spindle', 'serve'], \array_slice($arguments, 0, 2));
        /** @var list<string> $arguments */
        $server = $this->serve(\array_slice($arguments, 1));
        self::assertSame(1, \preg_match('#CMD curl -fsS http://127\.0\.0\.1:8080(/\S+)#', $dockerfile, $check));
        $health = self::curl(['-fsS', $server->url($check[1])]);
        self::assertSame(0, $health['code'], $health['err']);
        $hello = self::curl(['-s', $server->url('/')]);
        self::assertSame('Hello World', $hello['out']);
        self::assertTrue(self::eventually(static fn (): bool => \str_contains($server->stdout(), '"path":"/"'), 3.0), '--access-log=- writes JSON lines to stdout: ' . $server->stdout());
        self::assertSame(0, $server->stop());
    }

    /** No configuration on the page puts the metrics listener on every interface. */
    public function testTheMetricsListenerIsKeptOffPublicInterfaces(): void
    {
        $docs = (string) \file_get_contents(\dirname(__DIR__, 2) . '/docs/deploy.md');
        \preg_match_all('/--metrics=(?!HOST:PORT)([^\s",`]+)/', $docs, $m);
        self::assertGreaterThanOrEqual(4, \count($m[1]), 'the options, the unit, the Dockerfile and the manifest');
        foreach ($m[1] as $address) {
            self::assertMatchesRegularExpression('/^(127\.0\.0\.1|\$\(POD_IP\)):\d+$/', $address);
        }
    }

    public function testTheKubernetesManifestsLintAndMatchTheServerOptions(): void
    {
        $yaml = self::block('yaml');
        $file = $this->dir . '/manifests.yaml';
        \file_put_contents($file, $yaml);
        $python = \is_executable('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
        if (\is_executable('/usr/bin/yamllint')) {
            [$code, $out] = self::exec(['/usr/bin/yamllint', '-d', '{extends: default, rules: {document-start: disable, line-length: {max: 160}}}', $file]);
            self::assertSame(0, $code, $out);
        } else {
            self::markTestIncomplete('yamllint is not installed (scripts/test installs it)');
        }
        [$code, $json] = self::exec([$python, '-c', 'import sys, json, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))', $file]);
        self::assertSame(0, $code, $json);
        $documents = \json_decode($json, true);
        self::assertIsArray($documents);
        $byKind = [];
        foreach ($documents as $document) {
            self::assertIsArray($document);
            $byKind[$document['kind']] = $document;
        }
        self::assertSame(['Deployment', 'Service', 'PodDisruptionBudget', 'NetworkPolicy'], \array_keys($byKind));
        self::assertSame('apps/v1', $byKind['Deployment']['apiVersion']);
        self::assertSame('v1', $byKind['Service']['apiVersion']);
        self::assertSame('policy/v1', $byKind['PodDisruptionBudget']['apiVersion']);
        self::assertSame('networking.k8s.io/v1', $byKind['NetworkPolicy']['apiVersion']);

        $deployment = $byKind['Deployment']['spec'];
        $labels = $deployment['template']['metadata']['labels'];
        self::assertSame($deployment['selector']['matchLabels'], \array_intersect_key($labels, $deployment['selector']['matchLabels']), 'the selector matches the pods');
        self::assertSame($labels, \array_intersect_key($labels, $byKind['Service']['spec']['selector']) + $byKind['Service']['spec']['selector']);
        self::assertSame('RollingUpdate', $deployment['strategy']['type']);
        self::assertSame(0, $deployment['strategy']['rollingUpdate']['maxUnavailable'], 'a new pod is ready before an old one goes');

        $pod = $deployment['template']['spec'];
        $container = $pod['containers'][0];
        $options = self::options(\implode(' ', $container['args']));
        $ports = [];
        foreach ($container['ports'] as $port) {
            $ports[$port['name']] = $port['containerPort'];
        }
        self::assertSame((int) \explode(':', $options['metrics'])[1], $ports['metrics']);
        self::assertSame((int) $options['port'], $ports['http']);
        self::assertSame($options['health-path'], $container['livenessProbe']['httpGet']['path']);
        self::assertSame($options['ready-path'], $container['readinessProbe']['httpGet']['path']);
        self::assertArrayHasKey($container['livenessProbe']['httpGet']['port'], $ports);
        self::assertArrayHasKey($container['readinessProbe']['httpGet']['port'], $ports);
        self::assertArrayHasKey($byKind['Service']['spec']['ports'][0]['targetPort'], $ports);
        self::assertSame(['sleep'], \array_slice($container['lifecycle']['preStop']['exec']['command'], 0, 1));
        $pause = (float) $container['lifecycle']['preStop']['exec']['command'][1];
        self::assertGreaterThanOrEqual($pause + (float) $options['drain-timeout'], (float) $pod['terminationGracePeriodSeconds'], 'the grace period covers the pause and the drain');

        // The metrics listener binds the pod's address (from the downward API), and only the
        // NetworkPolicy's sources may reach it; the app's port stays open to all.
        self::assertSame('$(POD_IP)', \explode(':', $options['metrics'])[0]);
        $env = \array_column($container['env'], 'valueFrom', 'name');
        self::assertSame(['fieldRef' => ['fieldPath' => 'status.podIP']], $env['POD_IP']);
        $policy = $byKind['NetworkPolicy']['spec'];
        self::assertSame($policy['podSelector']['matchLabels'], \array_intersect_key($labels, $policy['podSelector']['matchLabels']), 'the policy selects the pods');
        self::assertSame(['Ingress'], $policy['policyTypes']);
        $sources = [];
        foreach ($policy['ingress'] as $rule) {
            foreach ($rule['ports'] as $port) {
                self::assertArrayHasKey($port['port'], $ports, 'a named port of the container');
                $sources[$port['port']] = $rule['from'] ?? 'anyone';
            }
        }
        self::assertSame('anyone', $sources['http']);
        self::assertIsArray($sources['metrics'], 'the metrics port is open to listed sources only');
        self::assertNotSame([], $sources['metrics']);

        // The container's arguments, run here, answer the probes where the manifest sends them.
        $server = $this->serve(\array_slice($container['args'], 1));
        $metrics = self::metricsPort($server);
        foreach ([$container['livenessProbe'], $container['readinessProbe']] as $probe) {
            $answer = self::curl(['-s', '-o', '/dev/null', '-w', '%{http_code}', 'http://127.0.0.1:' . $metrics . $probe['httpGet']['path']]);
            self::assertSame('200', $answer['out']);
        }
        self::assertSame(0, $server->stop());
    }
}
