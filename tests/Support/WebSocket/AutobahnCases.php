<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

/**
 * Autobahn|Testsuite's case list, sections 1–5, 7 and 10, translated into data from the cases'
 * descriptions and expectations (sections 6 and 9: AutobahnUtf8Cases, AutobahnLimitCases). Case
 * ids, payloads, fragmentation, chopping and pauses are the suite's; sections 12 and 13
 * (compression) are left out, as no extension is negotiated.
 */
final class AutobahnCases
{
    /** How many cases each translated section holds, by name (the test data providers' rows). */
    public const SECTIONS = [
        '1 framing' => [1, 16],
        '2 pings and pongs' => [2, 11],
        '3 reserved bits' => [3, 7],
        '4 opcodes' => [4, 10],
        '5 fragmentation' => [5, 20],
        '6 UTF-8' => [6, 144],
        '7 close handling' => [7, 37],
        '9 limits and performance' => [9, 54],
        '10 auto-fragmentation' => [10, 1],
    ];
    private const HELLO = 'Hello, world!';

    /**
     * Every case of sections 1–10, in the suite's order; section 9's sizes divided by $scale.
     *
     * @return \Generator<int, AutobahnCase>
     */
    public static function all(int $scale = 1): \Generator
    {
        foreach ([1, 2, 3, 4, 5, 6, 7, 9, 10] as $section) {
            yield from self::section($section, $scale);
        }
    }

    /** @return \Generator<int, AutobahnCase> */
    public static function section(int $section, int $scale = 1): \Generator
    {
        yield from match ($section) {
            1 => self::framing(),
            2 => self::pingPong(),
            3 => self::reservedBits(),
            4 => self::opcodes(),
            5 => self::fragmentation(),
            6 => AutobahnUtf8Cases::all(),
            7 => self::closing(),
            9 => AutobahnLimitCases::all($scale),
            10 => self::autoFragmentation(),
            default => throw new \InvalidArgumentException(\sprintf('No Autobahn section %d here', $section)),
        };
    }

    /**
     * A case the server passes by echoing: the client closes (1000) once everything expected came.
     *
     * @param list<array{0: string, 1: string, 2?: bool}> $expected
     */
    public static function echoes(string $id, string $description, CaseScript $script, array $expected): AutobahnCase
    {
        return new AutobahnCase($id, $description, $script->steps(), $expected, null, true, [1000], true, true);
    }

    /**
     * A case the server passes by failing the connection with $code.
     *
     * @param list<array{0: string, 1: string, 2?: bool}> $expected
     * @param list<array{0: string, 1: string, 2?: bool}>|null $nonStrict
     */
    public static function fails(string $id, string $description, CaseScript $script, array $expected = [], ?array $nonStrict = null, int $code = 1002, bool $fatal = false): AutobahnCase
    {
        return new AutobahnCase($id, $description, $script->steps(), $expected, $nonStrict, false, [$code], false, false, $fatal);
    }

    /**
     * A case in which the client sends its own close frame (the suite's suppressClose).
     *
     * @param list<int> $codes
     * @param list<array{0: string, 1: string, 2?: bool}> $expected
     */
    public static function clientCloses(string $id, string $description, CaseScript $script, array $codes, bool $clean, array $expected = [], bool $informational = false): AutobahnCase
    {
        return new AutobahnCase($id, $description, $script->steps(), $expected, $informational ? [] : null, true, $codes, $clean, false, false, $informational);
    }

    /** @return \Generator<int, AutobahnCase> */
    private static function framing(): \Generator
    {
        foreach ([1 => false, 2 => true] as $sub => $binary) {
            $unit = $binary ? "\xfe" : '*';
            $kind = $binary ? 'binary' : 'text';
            foreach ([1 => 0, 2 => 125, 3 => 126, 4 => 127, 5 => 128, 6 => 65535, 7 => 65536, 8 => 65536] as $n => $length) {
                $id = "1.{$sub}.{$n}";
                $payload = \str_repeat($unit, $length);
                $chop = $n === 8 ? 997 : null;
                yield self::echoes(
                    $id,
                    \sprintf('Send %s message with payload of length %d%s', $kind, $length, $chop === null ? '' : ', in chops of 997 octets'),
                    (new CaseScript($id))->frame($binary ? 2 : 1, $payload, chop: $chop),
                    [['message', $payload, $binary]],
                );
            }
        }
    }

    /** @return \Generator<int, AutobahnCase> */
    private static function pingPong(): \Generator
    {
        foreach ([1 => '', 2 => self::HELLO, 3 => "\x00\xff\xfe\xfd\xfc\xfb\x00\xff", 4 => \str_repeat("\xfe", 125)] as $n => $payload) {
            yield self::echoes("2.{$n}", \sprintf('Send ping with a payload of %d bytes', \strlen($payload)), (new CaseScript("2.{$n}"))->frame(9, $payload), [['pong', $payload]]);
        }
        yield self::fails('2.5', 'Send ping with a payload of 126 bytes (over the control frame limit)', (new CaseScript('2.5'))->frame(9, \str_repeat("\xfe", 126)));
        $payload = \str_repeat("\xfe", 125);
        yield self::echoes('2.6', 'Send ping with a payload of 125 bytes, in octet-wise chops', (new CaseScript('2.6'))->frame(9, $payload, chop: 1), [['pong', $payload]]);
        yield self::echoes('2.7', 'Send unsolicited pong without payload, then close: nothing comes back but the close', (new CaseScript('2.7'))->frame(10)->close(1000), []);
        yield self::echoes('2.8', 'Send unsolicited pong with payload, then close', (new CaseScript('2.8'))->frame(10, 'unsolicited pong payload')->close(1000), []);
        yield self::echoes('2.9', 'Send unsolicited pong, then a ping: the pong answers the ping', (new CaseScript('2.9'))->frame(10, 'unsolicited pong payload')->frame(9, 'ping payload'), [['pong', 'ping payload']]);
        foreach ([10 => null, 11 => 1] as $n => $chop) {
            $script = new CaseScript("2.{$n}");
            $expected = [];
            for ($i = 0; $i < 10; ++$i) {
                $script->frame(9, "payload-{$i}", chop: $chop);
                $expected[] = ['pong', "payload-{$i}"];
            }
            yield self::echoes("2.{$n}", 'Send 10 pings with payload' . ($chop === null ? '' : ', in octet-wise chops'), $script, $expected);
        }
    }

    /** @return \Generator<int, AutobahnCase> */
    private static function reservedBits(): \Generator
    {
        $message = [['message', self::HELLO, false]];
        yield self::fails('3.1', 'Send small text message with RSV = 1', (new CaseScript('3.1'))->frame(1, self::HELLO, rsv: 1));
        yield self::fails('3.2', 'Send small text message, then again with RSV = 2, then a ping', (new CaseScript('3.2'))->frame(1, self::HELLO)->frame(1, self::HELLO, rsv: 2)->frame(9), $message, []);
        yield self::fails('3.3', 'Send small text message, then again with RSV = 3, then a ping, in frame-wise chops', (new CaseScript('3.3'))->frame(1, self::HELLO, sync: true)->frame(1, self::HELLO, rsv: 3, sync: true)->frame(9, sync: true), $message, []);
        yield self::fails('3.4', 'Send small text message, then again with RSV = 4, then a ping, in octet-wise chops', (new CaseScript('3.4'))->frame(1, self::HELLO, chop: 1)->frame(1, self::HELLO, rsv: 4, chop: 1)->frame(9, chop: 1), $message, []);
        yield self::fails('3.5', 'Send small binary message with RSV = 5', (new CaseScript('3.5'))->frame(2, "\x00\xff\xfe\xfd\xfc\xfb\x00\xff", rsv: 5));
        // The suite's description says "Ping"; the frame it sends is a binary one.
        yield self::fails('3.6', 'Send small binary frame with RSV = 6', (new CaseScript('3.6'))->frame(2, self::HELLO, rsv: 6));
        yield self::fails('3.7', 'Send close with RSV = 7', (new CaseScript('3.7'))->frame(8, rsv: 7));
    }

    /** @return \Generator<int, AutobahnCase> */
    private static function opcodes(): \Generator
    {
        foreach ([1 => 3, 2 => 11] as $sub => $first) {
            $kind = $sub === 1 ? 'non-control' : 'control';
            $message = [['message', self::HELLO, false]];
            yield self::fails("4.{$sub}.1", "Send frame with reserved {$kind} opcode {$first}", (new CaseScript("4.{$sub}.1"))->frame($first));
            yield self::fails("4.{$sub}.2", \sprintf('Send frame with reserved %s opcode %d and a payload', $kind, $first + 1), (new CaseScript("4.{$sub}.2"))->frame($first + 1, 'reserved opcode payload'));
            yield self::fails("4.{$sub}.3", \sprintf('Send small text message, then a frame with reserved %s opcode %d, then a ping', $kind, $first + 2), (new CaseScript("4.{$sub}.3"))->frame(1, self::HELLO)->frame($first + 2)->frame(9), $message, []);
            yield self::fails("4.{$sub}.4", \sprintf('Send small text message, then a frame with reserved %s opcode %d and a payload, then a ping', $kind, $first + 3), (new CaseScript("4.{$sub}.4"))->frame(1, self::HELLO)->frame($first + 3, self::HELLO)->frame(9), $message, []);
            yield self::fails("4.{$sub}.5", \sprintf('Send small text message, then a frame with reserved %s opcode %d and a payload, then a ping, in octet-wise chops', $kind, $first + 4), (new CaseScript("4.{$sub}.5"))->frame(1, self::HELLO, chop: 1)->frame($first + 4, self::HELLO, chop: 1)->frame(9, chop: 1), $message, []);
        }
    }

    /** @return \Generator<int, AutobahnCase> */
    private static function fragmentation(): \Generator
    {
        yield self::fails('5.1', 'Send ping fragmented into 2 fragments', (new CaseScript('5.1'))->frame(9, 'fragment1', false)->frame(0, 'fragment2'));
        yield self::fails('5.2', 'Send pong fragmented into 2 fragments', (new CaseScript('5.2'))->frame(10, 'fragment1', false)->frame(0, 'fragment2'));
        $ways = [[null, false, ''], [null, true, ', in frame-wise chops'], [1, false, ', in octet-wise chops']];
        foreach ($ways as $i => [$chop, $sync, $how]) {
            $id = '5.' . (3 + $i);
            yield self::echoes($id, 'Send text message fragmented into 2 fragments' . $how, (new CaseScript($id))->frame(1, 'fragment1', false, chop: $chop, sync: $sync)->frame(0, 'fragment2', chop: $chop, sync: $sync), [['message', 'fragment1fragment2', false]]);
        }
        foreach ($ways as $i => [$chop, $sync, $how]) {
            $id = '5.' . (6 + $i);
            yield self::echoes(
                $id,
                'Send text message fragmented into 2 fragments, a ping with payload in between' . $how,
                (new CaseScript($id))->frame(1, 'fragment1', false, chop: $chop, sync: $sync)->frame(9, 'ping payload', chop: $chop, sync: $sync)->frame(0, 'fragment2', chop: $chop, sync: $sync),
                [['pong', 'ping payload'], ['message', 'fragment1fragment2', false]],
            );
        }
        foreach ([9 => true, 12 => false] as $start => $fin) {
            foreach ([[null, false, ', in one chop'], [null, true, ', in frame-wise chops'], [1, false, ', in octet-wise chops']] as $i => [$chop, $sync, $how]) {
                $id = '5.' . ($start + $i);
                yield self::fails(
                    $id,
                    \sprintf('Send unfragmented text message after a continuation frame with FIN = %s, where there is nothing to continue%s', $fin ? 'true' : 'false', $how),
                    (new CaseScript($id))->frame(0, 'non-continuation payload', $fin, chop: $chop, sync: $sync)->frame(1, self::HELLO, chop: $chop, sync: $sync),
                );
            }
        }
        yield self::fails(
            '5.15',
            'Send text message fragmented into 2 fragments, then a continuation frame with FIN = false where there is nothing to continue, then an unfragmented text message, all in one chop',
            (new CaseScript('5.15'))->frame(1, 'fragment1', false)->frame(0, 'fragment2')->frame(0, 'fragment3', false)->frame(1, 'fragment4'),
            [['message', 'fragment1fragment2', false]],
            [],
        );
        foreach ([16 => false, 17 => true] as $n => $fin) {
            $script = new CaseScript("5.{$n}");
            for ($i = 0; $i < 2; ++$i) {
                $script->frame(0, 'fragment1', $fin)->frame(1, 'fragment2', false)->frame(0, 'fragment3');
            }
            yield self::fails("5.{$n}", \sprintf('Repeated 2x: continuation frame with FIN = %s (nothing to continue), then a text message in 2 fragments', $fin ? 'true' : 'false'), $script);
        }
        yield self::fails('5.18', 'Send text message fragmented into 2 fragments, both frames with the text opcode', (new CaseScript('5.18'))->frame(1, 'fragment1', false)->frame(1, 'fragment2'));
        foreach ([19 => false, 20 => true] as $n => $sync) {
            $script = (new CaseScript("5.{$n}"))
                ->frame(1, 'fragment1', false, sync: $sync)->frame(0, 'fragment2', false, sync: $sync)->frame(9, 'pongme 1!', sync: $sync)
                ->pause(1.0)
                ->frame(0, 'fragment3', false, sync: $sync)->frame(0, 'fragment4', false, sync: $sync)->frame(9, 'pongme 2!', sync: $sync)->frame(0, 'fragment5', sync: $sync);
            yield self::echoes(
                "5.{$n}",
                'A text message in 5 fragments with 2 pings between them and a 1 s pause after the first ping' . ($sync ? ', every frame a write of its own' : ''),
                $script,
                [['pong', 'pongme 1!'], ['pong', 'pongme 2!'], ['message', 'fragment1fragment2fragment3fragment4fragment5', false]],
            );
        }
    }

    /** @return \Generator<int, AutobahnCase> */
    private static function closing(): \Generator
    {
        yield self::echoes('7.1.1', 'Send a message followed by a close frame', (new CaseScript('7.1.1'))->frame(1, 'Hello World!'), [['message', 'Hello World!', false]]);
        yield self::clientCloses('7.1.2', 'Send two close frames', (new CaseScript('7.1.2'))->close(1000)->frame(8), [1000], true);
        yield self::clientCloses('7.1.3', 'Send a ping after the close frame', (new CaseScript('7.1.3'))->close(1000)->frame(9), [1000], true);
        yield self::clientCloses('7.1.4', 'Send a text message after the close frame', (new CaseScript('7.1.4'))->close(1000)->frame(1, 'Hello World!'), [1000], true);
        yield self::clientCloses('7.1.5', 'Send message fragment 1, then close, then fragment 2', (new CaseScript('7.1.5'))->frame(1, 'fragment1', false)->close(1000)->frame(0, 'fragment2'), [1000], true);
        yield self::clientCloses(
            '7.1.6',
            'Send a 256 KiB message, then a small one, then close, then a ping (informational: whether the messages come back before the close)',
            (new CaseScript('7.1.6'))->frame(1, AutobahnLimitCases::fill('BAsd7&jh23', 256 * 1024))->frame(1, 'Hello World!')->close(1000)->frame(9),
            [1000],
            true,
            [['message', 'Hello World!', false]],
            true,
        );
        yield self::clientCloses('7.3.1', 'Send a close frame with payload length 0 (no code, no reason)', (new CaseScript('7.3.1'))->close(null), [1000], true);
        yield self::clientCloses('7.3.2', 'Send a close frame with payload length 1', (new CaseScript('7.3.2'))->closeWithPayload('a'), [1002], false);
        yield self::clientCloses('7.3.3', 'Send a close frame with payload length 2 (a code)', (new CaseScript('7.3.3'))->close(1000), [1000], true);
        yield self::clientCloses('7.3.4', 'Send a close frame with a code and a reason', (new CaseScript('7.3.4'))->close(1000, 'Hello World!'), [1000], true);
        yield self::clientCloses('7.3.5', 'Send a close frame with a code and a reason of the maximum length (123)', (new CaseScript('7.3.5'))->close(1000, \str_repeat('*', 123)), [1000], true);
        yield self::clientCloses('7.3.6', 'Send a close frame with a code and a reason of 124 bytes (a payload over 125)', (new CaseScript('7.3.6'))->close(1000, \str_repeat('*', 124)), [1002], false);
        yield self::clientCloses('7.5.1', 'Send a close frame with an invalid UTF-8 reason', (new CaseScript('7.5.1'))->close(1000, "\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80\x65\x64\x69\x74\x65\x64"), [1002, 1007], false);
        foreach ([1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999] as $i => $code) {
            $id = '7.7.' . ($i + 1);
            yield self::clientCloses($id, "Send close with valid close code {$code}", (new CaseScript($id))->close($code), [1000, $code], true);
        }
        foreach ([0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999] as $i => $code) {
            $id = '7.9.' . ($i + 1);
            yield self::clientCloses($id, "Send close with invalid close code {$code}", (new CaseScript($id))->close($code), [1002], false);
        }
        foreach ([1 => 5000, 2 => 65535] as $n => $code) {
            yield self::clientCloses("7.13.{$n}", "Send close with close code {$code} (informational: the spec leaves it open)", (new CaseScript("7.13.{$n}"))->close($code), [1000, $code, 1002], false, [], true);
        }
    }

    /** @return \Generator<int, AutobahnCase> */
    private static function autoFragmentation(): \Generator
    {
        $payload = \str_repeat('*', 65536);
        yield self::echoes('10.1.1', 'Send text message of 65536 bytes auto-fragmented into frames of 1300 bytes', (new CaseScript('10.1.1'))->message($payload, false, 1300), [['message', $payload, false]]);
    }
}
