<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

/**
 * Autobahn|Testsuite section 9 (limits and performance), as data. The suite times these cases;
 * here they check that big messages, many fragments, small chops and many round trips all come
 * back whole. The sizes are the suite's (up to 16 MiB) unless $scale divides them: the unit test
 * runs them at full size, a socket run may scale them down.
 */
final class AutobahnLimitCases
{
    /** $pattern repeated to $length bytes (the suite's payload_len). */
    public static function fill(string $pattern, int $length): string
    {
        return \substr(\str_repeat($pattern, \intdiv($length, \strlen($pattern)) + 1), 0, $length);
    }

    /** @return \Generator<int, AutobahnCase> */
    public static function all(int $scale = 1): \Generator
    {
        $sizes = [1 => 64 << 10, 2 => 256 << 10, 3 => 1 << 20, 4 => 4 << 20, 5 => 8 << 20, 6 => 16 << 20];
        foreach ([1 => false, 2 => true] as $sub => $binary) {
            foreach ($sizes as $n => $size) {
                $id = "9.{$sub}.{$n}";
                $payload = self::fill($binary ? "\x00\xfe\x23\xfa\xf0" : 'BAsd7&jh23', \intdiv($size, $scale));
                yield AutobahnCases::echoes($id, \sprintf('Send %s message of %d bytes', $binary ? 'binary' : 'text', \strlen($payload)), (new CaseScript($id))->frame($binary ? 2 : 1, $payload), [['message', $payload, $binary]]);
            }
        }
        $fragmentSizes = [1 => 64, 2 => 256, 3 => 1 << 10, 4 => 4 << 10, 5 => 16 << 10, 6 => 64 << 10, 7 => 256 << 10, 8 => 1 << 20, 9 => 4 << 20];
        foreach ([3 => false, 4 => true] as $sub => $binary) {
            foreach ($fragmentSizes as $n => $fragmentSize) {
                // The suite's 9.4.1 sends 0xfe octets, its other 9.3 and 9.4 cases '*'.
                $payload = \str_repeat($binary && $n === 1 ? "\xfe" : '*', \intdiv(4 << 20, $scale));
                $id = "9.{$sub}.{$n}";
                yield AutobahnCases::echoes(
                    $id,
                    \sprintf('Send fragmented %s message of %d bytes in fragments of %d', $binary ? 'binary' : 'text', \strlen($payload), $fragmentSize),
                    (new CaseScript($id))->message($payload, $binary, $fragmentSize),
                    [['message', $payload, $binary]],
                );
            }
        }
        foreach ([5 => false, 6 => true] as $sub => $binary) {
            $payload = self::fill($binary ? "\x00\xfe\x23\xfa\xf0" : 'BAsd7&jh23', \intdiv(1 << 20, $scale));
            foreach ([1 => 64, 2 => 128, 3 => 256, 4 => 512, 5 => 1024, 6 => 2048] as $n => $chop) {
                $id = "9.{$sub}.{$n}";
                yield AutobahnCases::echoes(
                    $id,
                    \sprintf('Send %s message of %d bytes in chops of %d octets', $binary ? 'binary' : 'text', \strlen($payload), $chop),
                    (new CaseScript($id))->frame($binary ? 2 : 1, $payload, chop: $chop),
                    [['message', $payload, $binary]],
                );
            }
        }
        foreach ([7 => false, 8 => true] as $sub => $binary) {
            foreach ([1 => 0, 2 => 16, 3 => 64, 4 => 256, 5 => 1024, 6 => 4096] as $n => $length) {
                $id = "9.{$sub}.{$n}";
                $payload = \str_repeat($binary ? "\xfe" : '*', $length);
                $script = new CaseScript($id);
                $expected = [];
                for ($i = 0; $i < 1000; ++$i) {
                    $script->frame($binary ? 2 : 1, $payload)->awaitMessages($i + 1);
                    $expected[] = ['message', $payload, $binary];
                }
                yield AutobahnCases::echoes($id, \sprintf('Send 1000 %s messages of %d bytes, each after the echo of the one before', $binary ? 'binary' : 'text', $length), $script, $expected);
            }
        }
    }
}
