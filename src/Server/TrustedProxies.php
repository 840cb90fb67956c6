<?php

declare(strict_types=1);

namespace Spindle\Server;

/**
 * `--trusted-proxies`: the addresses (or CIDR ranges) of the proxies in front of Spindle whose
 * X-Forwarded-For is believed. The client's address is then the last address in that header
 * that is not itself a trusted proxy, as nginx's realip module with `real_ip_recursive on`
 * finds it. From anyone else the header is ignored: the address is the peer's.
 */
final class TrustedProxies
{
    /** @var list<array{string, int}> packed network address and prefix length */
    private readonly array $networks;

    /** @param list<string> $ranges "10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8" */
    public function __construct(array $ranges)
    {
        $networks = [];
        foreach ($ranges as $range) {
            $range = \trim($range);
            if ($range === '') {
                continue;
            }
            $parts = \explode('/', $range, 2);
            $address = $parts[0];
            $bits = $parts[1] ?? null;
            $packed = @\inet_pton($address);
            $max = $packed === false ? 0 : \strlen($packed) * 8;
            if ($packed === false || ($bits !== null && (\preg_match('/^\d+$/D', $bits) !== 1 || (int) $bits > $max))) {
                throw new ServerError(\sprintf('--trusted-proxies: "%s" is not an address or CIDR range', $range));
            }
            $networks[] = [$packed, $bits === null ? $max : (int) $bits];
        }
        $this->networks = $networks;
    }

    /** @param string $list comma-separated, as given on the command line */
    public static function fromList(string $list): self
    {
        return new self(\explode(',', $list));
    }

    public function isEmpty(): bool
    {
        return $this->networks === [];
    }

    public function trusts(string $address): bool
    {
        $packed = @\inet_pton($address);
        if ($packed === false) {
            return false;
        }
        foreach ($this->networks as [$network, $bits]) {
            if (\strlen($network) !== \strlen($packed)) {
                continue;
            }
            $bytes = $bits >> 3;
            if (\substr($packed, 0, $bytes) !== \substr($network, 0, $bytes)) {
                continue;
            }
            $rest = $bits & 7;
            if ($rest === 0 || ((\ord($packed[$bytes]) ^ \ord($network[$bytes])) & (0xFF << (8 - $rest)) & 0xFF) === 0) {
                return true;
            }
        }

        return false;
    }

    /**
     * The client's address for a request from $peer with these X-Forwarded-For values.
     *
     * @param list<string>|null $forwardedFor
     */
    public function clientAddress(string $peer, ?array $forwardedFor): string
    {
        if ($forwardedFor === null || $this->networks === [] || !$this->trusts($peer)) {
            return $peer;
        }
        $hops = \array_map('trim', \explode(',', \implode(',', $forwardedFor)));
        for ($i = \count($hops) - 1; $i >= 0; --$i) {
            $hop = $hops[$i];
            if (@\inet_pton($hop) === false) {
                // Not an address: what is left of the header cannot be believed.
                return $peer;
            }
            if (!$this->trusts($hop)) {
                return $hop;
            }
            $peer = $hop;
        }

        return $peer;
    }
}
