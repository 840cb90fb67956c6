<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

/**
 * Host name to IP address. IP literals, "localhost" and the names in /etc/hosts are answered
 * without any I/O; any other name goes to the system resolver (getaddrinfo), which blocks the
 * worker for the lookup, and is then cached for $ttl seconds so that only the first request to a
 * host pays it. (amphp/dns would make that lookup non-blocking: see docs/http-client.md.)
 */
final class Resolver
{
    /** @var array<string, string>|null */
    private ?array $hosts = null;
    /** @var array<string, array{string, float}> address and expiry (hrtime seconds) */
    private array $cache = [];

    public function __construct(private readonly string $hostsFile = '/etc/hosts', private readonly float $ttl = 60.0)
    {
    }

    /** @throws ConnectException when the name does not resolve */
    public function resolve(string $host): string
    {
        $host = \trim($host, '[]');
        if (\filter_var($host, \FILTER_VALIDATE_IP) !== false) {
            return $host;
        }
        $name = \strtolower(\rtrim($host, '.'));
        if ($name === 'localhost' || \str_ends_with($name, '.localhost')) {
            return '127.0.0.1';
        }
        $this->hosts ??= $this->readHosts();
        if (isset($this->hosts[$name])) {
            return $this->hosts[$name];
        }
        $now = \hrtime(true) / 1e9;
        if (isset($this->cache[$name]) && $this->cache[$name][1] > $now) {
            return $this->cache[$name][0];
        }
        $addresses = \gethostbynamel($name);
        if ($addresses === false || $addresses === []) {
            throw new ConnectException(\sprintf('Could not resolve host: %s', $host));
        }
        if (\count($this->cache) > 1000) {
            $this->cache = [];
        }
        $this->cache[$name] = [$addresses[0], $now + $this->ttl];

        return $addresses[0];
    }

    /** @return array<string, string> */
    private function readHosts(): array
    {
        $hosts = [];
        $text = @\file_get_contents($this->hostsFile);
        foreach (\explode("\n", $text === false ? '' : $text) as $line) {
            $fields = \preg_split('/\s+/', \trim(\explode('#', $line, 2)[0]), -1, \PREG_SPLIT_NO_EMPTY);
            if ($fields === false || \count($fields) < 2 || \filter_var($fields[0], \FILTER_VALIDATE_IP, \FILTER_FLAG_IPV4) === false) {
                continue;
            }
            foreach (\array_slice($fields, 1) as $name) {
                $hosts[\strtolower($name)] ??= $fields[0];
            }
        }

        return $hosts;
    }
}
