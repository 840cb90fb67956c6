<?php

declare(strict_types=1);

namespace Spindle\HttpClient;

use Spindle\HttpClient\Dns\DnsClient;
use Spindle\HttpClient\Dns\DnsException;

/**
 * Host name to IP address without blocking the worker. IP literals, "localhost" and the names in
 * /etc/hosts are answered without any I/O; any other name is asked of the name servers of
 * /etc/resolv.conf over UDP on the event loop (DnsClient), and cached for its TTL (at most
 * $ttl seconds). A truncated answer, or SPINDLE_DNS=system, falls back to the system resolver
 * (getaddrinfo, which blocks). amphp/dns was not used: it brings six more packages.
 */
final class Resolver
{
    /** @var array<string, string>|null */
    private ?array $hosts = null;
    /** @var array<string, array{string, float}> address and expiry (hrtime seconds) */
    private array $cache = [];
    /** @var array<string, Transfer<string>> lookups in progress */
    private array $pending = [];

    private ?DnsClient $dns;

    public function __construct(
        private readonly string $hostsFile = '/etc/hosts',
        private readonly float $ttl = 60.0,
        ?DnsClient $dns = null,
    ) {
        $this->dns = $dns;
    }

    /** @throws ConnectException when the name does not resolve */
    public function resolve(string $host, ?float $deadline = null): string
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
        // Lookups of one name at once share one query.
        if (isset($this->pending[$name])) {
            return $this->pending[$name]->await();
        }
        $transfer = Transfer::start(fn (): string => $this->lookup($name, $host, $deadline));
        $this->pending[$name] = $transfer;
        try {
            return $transfer->await();
        } finally {
            unset($this->pending[$name]);
        }
    }

    /** @throws ConnectException */
    private function lookup(string $name, string $host, ?float $deadline): string
    {
        $now = \hrtime(true) / 1e9;
        $ttl = $this->ttl;
        $system = \getenv('SPINDLE_DNS') === 'system';
        $address = null;
        if (!$system) {
            try {
                $this->dns ??= DnsClient::fromResolvConf();
                [$address, $seconds] = $this->dns->lookup($name, $deadline);
                $ttl = \min($ttl, (float) $seconds);
            } catch (DnsException $e) {
                if (!\str_contains($e->getMessage(), 'truncated')) {
                    throw new ConnectException($e->getMessage(), 0, $e);
                }
            }
        }
        if ($address === null) {
            $addresses = \gethostbynamel($name);
            if ($addresses === false || $addresses === []) {
                throw new ConnectException(\sprintf('Could not resolve host: %s', $host));
            }
            $address = $addresses[0];
        }
        if (\count($this->cache) > 1000) {
            $this->cache = [];
        }
        $this->cache[$name] = [$address, $now + $ttl];

        return $address;
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
