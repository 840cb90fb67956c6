<?php

declare(strict_types=1);

namespace Spindle\Http\WebSocket;

/**
 * Incremental UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF) for text messages that arrive in pieces. push() answers false as soon as the bytes so
 * far can no longer be the start of valid UTF-8, so a bad message fails at the first bad byte's
 * piece, not at its end; a code point cut between pieces is held back until the rest arrives.
 *
 * The complete part of each piece is checked by PCRE's UTF-8 check (C speed); only the last
 * incomplete code point, at most 3 bytes, is looked at byte by byte.
 */
final class Utf8Validator
{
    /** The start of a code point whose remaining bytes have not arrived yet (0–3 bytes). */
    private string $pending = '';

    public function reset(): void
    {
        $this->pending = '';
    }

    /** Whether the bytes pushed so far end on a code point boundary. */
    public function isComplete(): bool
    {
        return $this->pending === '';
    }

    /** Whether $bytes alone are valid UTF-8, whole. */
    public static function isValid(string $bytes): bool
    {
        return \preg_match('//u', $bytes) === 1;
    }

    /** Whether everything pushed since reset() is (the beginning of) valid UTF-8. */
    public function push(string $bytes): bool
    {
        if ($this->pending !== '') {
            $bytes = $this->pending . $bytes;
            $this->pending = '';
        }
        if (\preg_match('//u', $bytes) === 1) {
            return true;
        }
        // Invalid, or valid up to a code point cut at the end: find the last lead byte.
        $last = \strlen($bytes) - 1;
        $start = $last;
        while ($start >= 0 && $last - $start < 3 && (\ord($bytes[$start]) & 0xC0) === 0x80) {
            --$start;
        }
        if ($start < 0) {
            return false;
        }
        $lead = \ord($bytes[$start]);
        $length = $lead >= 0xF0 ? 4 : ($lead >= 0xE0 ? 3 : ($lead >= 0xC0 ? 2 : 1));
        if ($last - $start + 1 >= $length) {
            return false;
        }
        $tail = \substr($bytes, $start);
        if (!self::isPrefix($tail) || ($start > 0 && \preg_match('//u', \substr($bytes, 0, $start)) !== 1)) {
            return false;
        }
        $this->pending = $tail;

        return true;
    }

    /** Whether $tail (a lead byte and fewer continuation bytes than it needs) can still become a valid code point. */
    private static function isPrefix(string $tail): bool
    {
        $lead = \ord($tail[0]);
        if ($lead < 0xC2 || $lead > 0xF4) {
            return false;
        }
        if (\strlen($tail) === 1) {
            return true;
        }
        $second = \ord($tail[1]);

        return match ($lead) {
            0xE0 => $second >= 0xA0,
            0xED => $second <= 0x9F,
            0xF0 => $second >= 0x90,
            0xF4 => $second <= 0x8F,
            default => true,
        };
    }
}
