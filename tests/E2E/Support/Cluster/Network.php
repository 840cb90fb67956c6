<?php

declare(strict_types=1);

namespace Spindle\Tests\E2E\Support\Cluster;

use PHPUnit\Framework\Assert;

/**
 * Hosts of their own on this machine: one network namespace per host, joined to the test's
 * namespace by a veth pair (10.X.N.1 on this side, 10.X.N.2 in host N). Created by the test
 * and removed in remove(); only these namespaces and links are ever touched.
 */
final class Network
{
    /** @var list<string> namespaces created so far */
    private array $namespaces = [];
    /** @var list<string> links created so far (this side of each pair) */
    private array $links = [];
    private readonly string $tag;
    private readonly int $octet;

    private function __construct()
    {
        // Unique per test process: namespace and link names, and the addresses (10.X.0.0/16, an X
        // that no address on this machine uses yet).
        $this->tag = \substr((string) \getmypid(), -5);
        $octet = 100 + \getmypid() % 100;
        for ($i = 0; $i < 100; ++$i) {
            $candidate = 100 + ($octet - 100 + $i) % 100;
            $used = (string) \shell_exec('ip -4 -o addr show to 10.' . $candidate . '.0.0/16 2>/dev/null');
            if (\trim($used) === '') {
                $octet = $candidate;
                break;
            }
        }
        $this->octet = $octet;
    }

    /** Creates $hosts namespaces, or skips the test (with the reason) where the machine forbids it. */
    public static function create(int $hosts): self
    {
        if (\posix_geteuid() !== 0) {
            Assert::markTestSkipped('Network namespaces need root');
        }
        if (!\is_executable('/usr/sbin/ip') && !\is_executable('/sbin/ip') && !\is_executable('/usr/bin/ip')) {
            Assert::markTestSkipped('The ip command (iproute2) is not installed');
        }
        $network = new self();
        try {
            for ($i = 1; $i <= $hosts; ++$i) {
                $network->addHost($i);
            }
        } catch (\RuntimeException $e) {
            $network->remove();
            Assert::markTestSkipped('This machine does not let the test create network namespaces: ' . $e->getMessage());
        }

        return $network;
    }

    public function namespace(int $host): string
    {
        return 'spindle-' . $this->tag . '-h' . $host;
    }

    /** The host's address, inside its namespace. */
    public function address(int $host): string
    {
        return '10.' . $this->octet . '.' . $host . '.2';
    }

    public function remove(): void
    {
        foreach ($this->links as $link) {
            self::run(['ip', 'link', 'del', $link], false);
        }
        foreach ($this->namespaces as $namespace) {
            self::run(['ip', 'netns', 'del', $namespace], false);
        }
        $this->links = $this->namespaces = [];
    }

    private function addHost(int $i): void
    {
        $namespace = $this->namespace($i);
        $outer = 'sp' . $this->tag . 'h' . $i;
        $inner = 'sp' . $this->tag . 'n' . $i;
        $net = '10.' . $this->octet . '.' . $i;
        self::run(['ip', 'netns', 'add', $namespace]);
        $this->namespaces[] = $namespace;
        self::run(['ip', 'link', 'add', $outer, 'type', 'veth', 'peer', 'name', $inner]);
        $this->links[] = $outer;
        self::run(['ip', 'link', 'set', $inner, 'netns', $namespace]);
        self::run(['ip', 'addr', 'add', $net . '.1/24', 'dev', $outer]);
        self::run(['ip', 'link', 'set', $outer, 'up']);
        self::run(['ip', 'netns', 'exec', $namespace, 'ip', 'addr', 'add', $net . '.2/24', 'dev', $inner]);
        self::run(['ip', 'netns', 'exec', $namespace, 'ip', 'link', 'set', $inner, 'up']);
        self::run(['ip', 'netns', 'exec', $namespace, 'ip', 'link', 'set', 'lo', 'up']);
    }

    /** @param list<string> $command */
    private static function run(array $command, bool $check = true): void
    {
        $process = \proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!\is_resource($process)) {
            throw new \RuntimeException('cannot run ' . \implode(' ', $command));
        }
        $error = (string) \stream_get_contents($pipes[2]);
        \fclose($pipes[2]);
        $code = \proc_close($process);
        if ($check && $code !== 0) {
            throw new \RuntimeException(\sprintf('%s: %s', \implode(' ', $command), \trim($error)));
        }
    }
}
