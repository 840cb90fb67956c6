<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * The server's permessage-deflate policy (RFC 7692), off unless a ServerHandshake is given one.
 * negotiate() reads a client's offers and accepts the first it can honour:
 *
 * - server_no_context_takeover (offered, or $serverNoContextTakeover here): this side compresses
 *   each message on its own (less memory kept between messages, less compression);
 * - client_no_context_takeover: asked of the client when $clientNoContextTakeover (RFC 7692 lets
 *   the server add it to any offer);
 * - server_max_window_bits=N (9–15): this side's window; an offer of 8 is declined (zlib cannot
 *   deflate raw with a 256-byte window);
 * - client_max_window_bits: the client's window is accepted as the client wants it (the inflater
 *   always has room for 15 bits).
 *
 * An offer with an unknown or repeated parameter, or a value out of range, is declined. Messages
 * shorter than $minCompressBytes are sent uncompressed (RSV1 is per message).
 *
 * Memory decides the defaults: with context takeover a connection keeps its zlib contexts between
 * messages, about 300 KiB with 15-bit windows, against about 1 KiB for a session without
 * compression; without it (the default, both ways) the contexts live for one message only, and a
 * connection that is not in the middle of a message keeps nothing. Take over contexts (false,
 * false) only for few connections with long, similar messages.
 */
final class PerMessageDeflate
{
    public function __construct(
        public readonly bool $serverNoContextTakeover = true,
        public readonly bool $clientNoContextTakeover = true,
        public readonly int $minCompressBytes = 64,
    ) {
    }

    /**
     * The agreed parameters for the first acceptable offer among the Sec-WebSocket-Extensions
     * values, or null (no permessage-deflate).
     *
     * @param list<string> $headerValues
     */
    public function negotiate(array $headerValues): ?DeflateParams
    {
        foreach (self::offers($headerValues) as [$name, $params]) {
            if ($name !== 'permessage-deflate') {
                continue;
            }
            $serverNoTakeover = $this->serverNoContextTakeover;
            $clientNoTakeover = $this->clientNoContextTakeover;
            $serverBits = 15;
            $clientBits = 15;
            $seen = [];
            foreach ($params as [$param, $value]) {
                if (isset($seen[$param])) {
                    continue 2;
                }
                $seen[$param] = true;
                switch ($param) {
                    case 'server_no_context_takeover':
                    case 'client_no_context_takeover':
                        if ($value !== null) {
                            continue 3;
                        }
                        if ($param === 'server_no_context_takeover') {
                            $serverNoTakeover = true;
                        }
                        break;
                    case 'server_max_window_bits':
                        if ($value === null || \preg_match('~^(9|1[0-5])$~', $value) !== 1) {
                            continue 3;
                        }
                        $serverBits = (int) $value;
                        break;
                    case 'client_max_window_bits':
                        if ($value !== null && \preg_match('~^([89]|1[0-5])$~', $value) !== 1) {
                            continue 3;
                        }
                        break;
                    default:
                        continue 3;
                }
            }

            return new DeflateParams($serverNoTakeover, $clientNoTakeover, $serverBits, $clientBits, isset($seen['server_max_window_bits']), $this->minCompressBytes);
        }

        return null;
    }

    /**
     * @param list<string> $headerValues
     *
     * @return list<array{string, list<array{string, ?string}>}> each offer's name and parameters
     */
    private static function offers(array $headerValues): array
    {
        $offers = [];
        foreach ($headerValues as $value) {
            foreach (\explode(',', $value) as $offer) {
                $parts = \array_map('trim', \explode(';', $offer));
                $name = \strtolower(\array_shift($parts));
                if ($name === '') {
                    continue;
                }
                $params = [];
                foreach ($parts as $part) {
                    if ($part === '') {
                        continue;
                    }
                    $pieces = \explode('=', $part, 2);
                    $params[] = [\strtolower(\trim($pieces[0])), isset($pieces[1]) ? \trim($pieces[1], " \t\"") : null];
                }
                $offers[] = [$name, $params];
            }
        }

        return $offers;
    }
}
