<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Dns;

/**
 * Sans-I/O DNS (RFC 1035) for one question: the bytes of a recursive query for A or AAAA, and
 * the addresses (with their smallest TTL) in the answer to it. Names may be compressed; CNAME
 * chains are followed within the answer. Anything malformed raises DnsException.
 */
final class DnsCodec
{
    public const A = 1;
    public const AAAA = 28;
    private const CNAME = 5;
    private const MAX_POINTERS = 32;

    public function query(int $id, string $name, int $type): string
    {
        $question = '';
        foreach (\explode('.', \rtrim($name, '.')) as $label) {
            if ($label === '' || \strlen($label) > 63) {
                throw new DnsException(\sprintf('Invalid host name: %s', $name));
            }
            $question .= \chr(\strlen($label)) . $label;
        }
        if (\strlen($question) > 254) {
            throw new DnsException(\sprintf('Host name too long: %s', $name));
        }

        // Header: id, flags RD, one question; then QNAME, QTYPE, QCLASS IN.
        return \pack('nnnnnn', $id, 0x0100, 1, 0, 0, 0) . $question . "\0" . \pack('nn', $type, 1);
    }

    /**
     * @return array{addresses: list<string>, ttl: int, truncated: bool, rcode: int}
     *
     * @throws DnsException
     */
    public function answer(string $bytes, int $id, string $name, int $type): array
    {
        if (\strlen($bytes) < 12) {
            throw new DnsException('DNS answer shorter than its header');
        }
        $header = \unpack('nid/nflags/nqd/nan/nns/nar', $bytes);
        if ($header === false || $header['id'] !== $id) {
            throw new DnsException('DNS answer to another query');
        }
        $flags = $header['flags'];
        if (($flags & 0x8000) === 0) {
            throw new DnsException('DNS message is not an answer');
        }
        $result = ['addresses' => [], 'ttl' => 3600, 'truncated' => ($flags & 0x0200) !== 0, 'rcode' => $flags & 0x000f];
        $offset = 12;
        for ($i = 0; $i < $header['qd']; ++$i) {
            $this->name($bytes, $offset);
            $offset += 4;
        }
        $wanted = [\strtolower(\rtrim($name, '.'))];
        for ($i = 0; $i < $header['an']; ++$i) {
            $owner = \strtolower($this->name($bytes, $offset));
            if ($offset + 10 > \strlen($bytes)) {
                throw new DnsException('DNS record cut short');
            }
            $record = \unpack('ntype/nclass/Nttl/nlength', $bytes, $offset);
            if ($record === false) {
                throw new DnsException('DNS record cut short');
            }
            $offset += 10;
            $data = $offset;
            $offset += $record['length'];
            if ($offset > \strlen($bytes)) {
                throw new DnsException('DNS record data cut short');
            }
            if (!\in_array($owner, $wanted, true)) {
                continue;
            }
            if ($record['type'] === self::CNAME) {
                $target = $data;
                $wanted[] = \strtolower($this->name($bytes, $target));
            } elseif ($record['type'] === $type && $record['length'] === ($type === self::A ? 4 : 16)) {
                $address = \inet_ntop(\substr($bytes, $data, $record['length']));
                if ($address !== false) {
                    $result['addresses'][] = $address;
                    $result['ttl'] = \min($result['ttl'], $record['ttl'] & 0x7fffffff);
                }
            }
        }

        return $result;
    }

    /** Reads a possibly compressed name at $offset, moving $offset past it. */
    private function name(string $bytes, int &$offset): string
    {
        $labels = [];
        $position = $offset;
        $jumped = false;
        for ($pointers = 0; ; ) {
            if ($position >= \strlen($bytes)) {
                throw new DnsException('DNS name runs past the message');
            }
            $length = \ord($bytes[$position]);
            if ($length === 0) {
                ++$position;
                break;
            }
            if (($length & 0xc0) === 0xc0) {
                if ($position + 1 >= \strlen($bytes) || ++$pointers > self::MAX_POINTERS) {
                    throw new DnsException('DNS name pointer loop or cut short');
                }
                if (!$jumped) {
                    $offset = $position + 2;
                    $jumped = true;
                }
                $position = (($length & 0x3f) << 8) | \ord($bytes[$position + 1]);
                continue;
            }
            if (($length & 0xc0) !== 0 || $position + 1 + $length > \strlen($bytes)) {
                throw new DnsException('DNS label invalid or cut short');
            }
            $labels[] = \substr($bytes, $position + 1, $length);
            $position += 1 + $length;
        }
        if (!$jumped) {
            $offset = $position;
        }

        return \implode('.', $labels);
    }
}
