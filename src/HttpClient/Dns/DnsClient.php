<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Dns;

use Spindle\Loop\SocketWaiter;

/**
 * Asks the name servers of /etc/resolv.conf over UDP, waiting on the event loop (the calling
 * fiber is suspended, the worker goes on). Honours `search`, `ndots`, `timeout` and `attempts`.
 */
final class DnsClient
{
    private readonly DnsCodec $codec;

    /**
     * @param list<string> $nameservers IP addresses, optionally "ip:port" (IPv6 as "[ip]:port")
     * @param list<string> $search
     */
    public function __construct(
        private readonly array $nameservers,
        private readonly array $search = [],
        private readonly int $ndots = 1,
        private readonly float $timeout = 2.0,
        private readonly int $attempts = 2,
    ) {
        $this->codec = new DnsCodec();
    }

    public static function fromResolvConf(string $path = '/etc/resolv.conf'): self
    {
        $nameservers = [];
        $search = [];
        $ndots = 1;
        $timeout = 2.0;
        $attempts = 2;
        $text = @\file_get_contents($path);
        foreach (\explode("\n", $text === false ? '' : $text) as $line) {
            $fields = \preg_split('/\s+/', \trim(\preg_replace('/[#;].*/', '', $line) ?? ''), -1, \PREG_SPLIT_NO_EMPTY) ?: [];
            $keyword = \array_shift($fields);
            if ($keyword === 'nameserver' && isset($fields[0]) && \filter_var($fields[0], \FILTER_VALIDATE_IP) !== false) {
                $nameservers[] = $fields[0];
            } elseif ($keyword === 'search' || $keyword === 'domain') {
                $search = $fields;
            } elseif ($keyword === 'options') {
                foreach ($fields as $option) {
                    [$name, $value] = \explode(':', $option, 2) + [1 => ''];
                    match ($name) {
                        'ndots' => $ndots = (int) $value,
                        'timeout' => $timeout = \max(0.1, (float) $value),
                        'attempts' => $attempts = \max(1, (int) $value),
                        default => null,
                    };
                }
            }
        }

        return new self($nameservers === [] ? ['127.0.0.1'] : $nameservers, $search, $ndots, $timeout, $attempts);
    }

    /**
     * @return array{string, int} an address of $name and how many seconds it may be cached
     *
     * @throws DnsException
     */
    public function lookup(string $name, ?float $deadline): array
    {
        $name = \rtrim($name, '.');
        $candidates = [];
        if (\substr_count($name, '.') < $this->ndots) {
            foreach ($this->search as $domain) {
                $candidates[] = $name . '.' . $domain;
            }
        }
        $candidates[] = $name;
        $last = null;
        foreach ($candidates as $candidate) {
            foreach ([DnsCodec::A, DnsCodec::AAAA] as $type) {
                $answer = $this->ask($candidate, $type, $deadline);
                if ($answer['truncated'] && $answer['addresses'] === []) {
                    throw new DnsException(\sprintf('The DNS answer for %s was truncated', $candidate));
                }
                if ($answer['addresses'] !== []) {
                    return [$answer['addresses'][0], $answer['ttl']];
                }
                $last = $answer['rcode'];
                if ($answer['rcode'] === 3) {
                    break; // NXDOMAIN: no other type either
                }
            }
        }

        throw new DnsException(\sprintf('Could not resolve host: %s%s', $name, $last === 3 ? ' (no such name)' : ''));
    }

    /** @return array{addresses: list<string>, ttl: int, truncated: bool, rcode: int} */
    private function ask(string $name, int $type, ?float $deadline): array
    {
        $problem = 'no name server answered';
        for ($attempt = 0; $attempt < $this->attempts; ++$attempt) {
            foreach ($this->nameservers as $server) {
                $address = \str_contains($server, ']:') || (\substr_count($server, ':') === 1) ? $server : (\str_contains($server, ':') ? '[' . $server . ']:53' : $server . ':53');
                $socket = @\stream_socket_client('udp://' . $address, $errno, $errstr, null);
                if ($socket === false) {
                    $problem = $errstr;
                    continue;
                }
                \stream_set_blocking($socket, false);
                $waiter = new SocketWaiter($socket);
                try {
                    $id = \random_int(0, 0xffff);
                    @\fwrite($socket, $this->codec->query($id, $name, $type));
                    $until = \hrtime(true) / 1e9 + $this->timeout;
                    $until = $deadline === null ? $until : \min($until, $deadline);
                    while ($waiter->wait(false, $until)) {
                        $bytes = @\fread($socket, 65535);
                        if ($bytes === false || $bytes === '') {
                            $problem = 'the name server refused the query';
                            break;
                        }
                        try {
                            return $this->codec->answer($bytes, $id, $name, $type);
                        } catch (DnsException $e) {
                            $problem = $e->getMessage(); // not ours, or broken: keep waiting
                        }
                    }
                } finally {
                    $waiter->cancel();
                    \fclose($socket);
                }
                if ($deadline !== null && \hrtime(true) / 1e9 >= $deadline) {
                    throw new DnsException(\sprintf('Resolving %s timed out', $name));
                }
            }
        }

        throw new DnsException(\sprintf('Resolving %s failed: %s', $name, $problem));
    }
}
