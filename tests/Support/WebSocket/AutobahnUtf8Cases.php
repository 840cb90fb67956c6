<?php

declare(strict_types=1);

namespace Spindle\Tests\Support\WebSocket;

/**
 * Autobahn|Testsuite section 6 (UTF-8 handling), as data: 6.1–6.4 from the cases' descriptions,
 * 6.5 onwards from the decoder test sequences in utf8-vectors.php (one sub-section per group, one
 * case per sequence, sent as one text message: a valid one must come back, an invalid one must
 * fail the connection with 1007 from the server's side).
 */
final class AutobahnUtf8Cases
{
    private const KOSME = "\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5";
    private const UMLAUTS = 'Hello-µ@ßöäüàá-UTF-8!!';

    /** @return \Generator<int, AutobahnCase> */
    public static function all(): \Generator
    {
        yield AutobahnCases::echoes('6.1.1', 'Send text message of length 0', (new CaseScript('6.1.1'))->frame(1, ''), [['message', '', false]]);
        yield AutobahnCases::echoes('6.1.2', 'Send fragmented text message, 3 fragments each of length 0', (new CaseScript('6.1.2'))->frame(1, '', false)->frame(0, '', false)->frame(0, ''), [['message', '', false]]);
        yield AutobahnCases::echoes('6.1.3', 'Send fragmented text message, 3 fragments, first and last of length 0, middle non-empty', (new CaseScript('6.1.3'))->frame(1, '', false)->frame(0, 'middle frame payload', false)->frame(0, ''), [['message', 'middle frame payload', false]]);

        $valid = [['message', self::UMLAUTS, false]];
        yield AutobahnCases::echoes('6.2.1', 'Send a valid UTF-8 text message in one fragment', (new CaseScript('6.2.1'))->message(self::UMLAUTS), $valid);
        yield AutobahnCases::echoes('6.2.2', 'Send a valid UTF-8 text message in two fragments, cut on a code point boundary', (new CaseScript('6.2.2'))->frame(1, 'Hello-µ@ßöä', false)->frame(0, 'üàá-UTF-8!!'), $valid);
        yield AutobahnCases::echoes('6.2.3', 'Send a valid UTF-8 text message in fragments of 1 octet (frames end inside code points)', (new CaseScript('6.2.3'))->message(self::UMLAUTS, false, 1), $valid);
        yield AutobahnCases::echoes('6.2.4', 'Send a valid UTF-8 text message (κόσμε) in fragments of 1 octet', (new CaseScript('6.2.4'))->message(self::KOSME, false, 1), [['message', self::KOSME, false]]);

        $invalid = self::KOSME . "\xed\xa0\x80" . 'edited';
        yield self::invalid('6.3.1', 'Send invalid UTF-8 text message unfragmented', (new CaseScript('6.3.1'))->message($invalid));
        yield self::invalid('6.3.2', 'Send invalid UTF-8 text message in fragments of 1 octet', (new CaseScript('6.3.2'))->message($invalid, false, 1));

        // 6.4: fail fast. The first piece is valid and must be taken (the connection is still open
        // after the pause A); the second makes the message invalid and must fail it at once.
        $part2 = "\xf4\x90\x80\x80";
        $whole = self::KOSME . $part2 . 'edited';
        yield self::failFast('6.4.1', 'Send invalid UTF-8 text message in 3 frames: valid, then the frame holding U+110000 (0xf4 0x90 0x80 0x80), then the rest', static function (CaseScript $s): array {
            return [$s->frameChunks(1, self::KOSME, [], false)[0], $s->frameChunks(0, "\xf4\x90\x80\x80", [], false)[0], $s->frameChunks(0, 'edited', [])[0]];
        });
        yield self::failFast('6.4.2', 'As 6.4.1, but the 2nd frame holds only the octet that makes the payload invalid', static function (CaseScript $s) use ($whole): array {
            return [$s->frameChunks(1, \substr($whole, 0, 12), [], false)[0], $s->frameChunks(0, $whole[12], [], false)[0], $s->frameChunks(0, \substr($whole, 13), [])[0]];
        });
        yield self::failFast('6.4.3', 'As 6.4.1, but in 3 chops of one frame', static fn (CaseScript $s): array => $s->frameChunks(1, $whole, [11, 15]));
        yield self::failFast('6.4.4', 'As 6.4.2, but in 3 chops of one frame', static fn (CaseScript $s): array => $s->frameChunks(1, $whole, [12, 13]));

        /** @var list<array{string, list<array{bool, string}>}> $groups */
        $groups = require __DIR__ . '/utf8-vectors.php';
        foreach ($groups as $g => [$title, $sequences]) {
            foreach ($sequences as $i => [$isValid, $hex]) {
                $id = \sprintf('6.%d.%d', $g + 5, $i + 1);
                $payload = (string) \hex2bin($hex);
                $description = \sprintf('%s: a text message that is %s UTF-8 (0x%s)', $title, $isValid ? 'valid' : 'not valid', $hex);
                yield $isValid
                    ? AutobahnCases::echoes($id, $description, (new CaseScript($id))->message($payload), [['message', $payload, false]])
                    : self::invalid($id, $description, (new CaseScript($id))->message($payload));
            }
        }
    }

    private static function invalid(string $id, string $description, CaseScript $script): AutobahnCase
    {
        return AutobahnCases::fails($id, $description, $script, [], null, 1007, true);
    }

    /** @param \Closure(CaseScript): list<string> $pieces the three writes */
    private static function failFast(string $id, string $description, \Closure $pieces): AutobahnCase
    {
        $script = new CaseScript($id);
        [$first, $second, $third] = $pieces($script);
        $script->raw($first, sync: true)->pause(1.0, 'A')->raw($second, sync: true)->pause(1.0, 'B')->raw($third, sync: true);

        return AutobahnCases::fails($id, $description, $script, [['timeout', 'A']], [['timeout', 'A'], ['timeout', 'B']], 1007, true);
    }
}
