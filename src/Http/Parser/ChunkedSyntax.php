<?php

declare(strict_types=1);

namespace Spindle\Http\Parser;

use Spindle\Http\HttpException;

/**
 * The lines of a chunked body (RFC 9112 §7.1) other than its data: the chunk-size line with its
 * extensions, and the field lines of the trailer section. A line is checked whole, without its
 * CRLF, and refused with a 400 unless it matches the grammar exactly: a front proxy that reads
 * a lenient line one way and Spindle another could disagree on where the body ends.
 *
 * @internal used by ChunkedDecoder (strict)
 */
final class ChunkedSyntax
{
    private const HEX = '0123456789abcdefABCDEF';
    private const TOKEN = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    /**
     * chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ), a name being a
     * token and a value a token or a quoted-string (RFC 9110 §5.6.4: qdtext and quoted-pair,
     * both HTAB, SP, visible ASCII or obs-text). Possessive quantifiers: the alternatives never
     * overlap, so no backtracking is needed, and a long line that fails fails in linear time.
     */
    private const EXTENSIONS = "#\\G(?:[ \\t]*+;[ \\t]*+[!\\#$%&'*+.^_`|~0-9A-Za-z-]++"
        . "(?:[ \\t]*+=[ \\t]*+(?:[!\\#$%&'*+.^_`|~0-9A-Za-z-]++"
        . "|\"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]++|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*+\"))?+)*+$#D";
    /** field-line = field-name ":" OWS field-value OWS, a value holding no control but HTAB (RFC 9110 §5.5). */
    private const FIELD_LINE = "#^[!\\#$%&'*+.^_`|~0-9A-Za-z-]++:[^\\x00-\\x08\\x0a-\\x1f\\x7f]*+$#D";
    /** Control characters but HTAB, CR and LF are refused with their own message. */
    private const CONTROLS = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f";

    /**
     * The size a chunk-size line gives, its extensions checked and ignored (RFC 9112 §7.1.1).
     *
     * @param string $line the line without its CRLF
     *
     * @throws HttpException 400 for a malformed line
     */
    public static function chunkSize(string $line): int
    {
        $digits = \strspn($line, self::HEX);
        // 15 significant hex digits fit a 64-bit int with room for the running body total.
        if ($digits === 0 || $digits - \strspn($line, '0') > 15) {
            throw new HttpException(400, 'Malformed chunk size');
        }
        if ($digits !== \strlen($line) && \preg_match(self::EXTENSIONS, $line, $m, 0, $digits) !== 1) {
            $rest = (string) \substr($line, $digits);
            if (\strcspn($rest, self::CONTROLS) !== \strlen($rest)) {
                throw new HttpException(400, 'Invalid character in a chunk extension');
            }
            $trimmed = \ltrim($rest, " \t");

            throw new HttpException(400, $trimmed === '' || $trimmed[0] !== ';' ? 'Malformed chunk size' : 'Malformed chunk extension');
        }

        return (int) \hexdec(\substr($line, 0, $digits));
    }

    /**
     * Checks one line of the trailer section: a field line with the same rules as in the head.
     *
     * @param string $line the line without its CRLF, not empty
     *
     * @throws HttpException 400 for a malformed line
     */
    public static function checkTrailerLine(string $line): void
    {
        if (\preg_match(self::FIELD_LINE, $line) === 1) {
            return;
        }
        $colon = \strpos($line, ':');
        if ($line[0] === ' ' || $line[0] === "\t") {
            throw new HttpException(400, 'Obsolete line folding is not accepted in the trailer section');
        }
        if ($colon === false || $colon === 0 || \strspn($line, self::TOKEN) !== $colon) {
            throw new HttpException(400, 'Malformed trailer field line');
        }

        throw new HttpException(400, 'Invalid character in a trailer field value');
    }
}
