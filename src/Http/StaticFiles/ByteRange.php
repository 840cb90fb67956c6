<?php

declare(strict_types=1);

namespace Spindle\Http\StaticFiles;

/**
 * One satisfiable byte range of a file, both ends inclusive (RFC 9110 §14.1.2).
 *
 * Only a single range-spec is honoured: a Range header listing several ranges is ignored and
 * the whole file is served, because Spindle does not produce multipart/byteranges bodies.
 */
final class ByteRange
{
    /** More digits than this could overflow an int; such values are treated as "huge". */
    private const MAX_DIGITS = 18;

    public function __construct(
        public readonly int $first,
        public readonly int $last,
    ) {
    }

    public function length(): int
    {
        return $this->last - $this->first + 1;
    }

    /** The Content-Range value for a 206 response. */
    public function contentRange(int $size): string
    {
        return \sprintf('bytes %d-%d/%d', $this->first, $this->last, $size);
    }

    /**
     * Interprets a Range header value against a file of $size bytes ($size > 0).
     *
     * Accepts "bytes=a-b", "bytes=a-" and "bytes=-n" (unit case-insensitive, optional
     * whitespace, empty list elements skipped). A last position past the end is clamped.
     */
    public static function fromHeader(string $value, int $size): self|RangeRejection
    {
        if ($size <= 0 || \preg_match('/^\s*bytes\s*=(.*)$/Dis', $value, $m) !== 1) {
            return RangeRejection::Ignore;
        }
        $specs = \array_values(\array_filter(
            \array_map(static fn (string $spec): string => \trim($spec, " \t"), \explode(',', $m[1])),
            static fn (string $spec): bool => $spec !== '',
        ));
        if (\count($specs) !== 1 || \preg_match('/^(\d*)-(\d*)$/D', $specs[0], $parts) !== 1) {
            return RangeRejection::Ignore;
        }
        [, $first, $last] = $parts;

        if ($first === '') {
            if ($last === '') {
                return RangeRejection::Ignore;
            }
            $suffix = self::toInt($last);
            if ($suffix === 0) {
                return RangeRejection::Unsatisfiable;
            }

            return new self(\max(0, $size - $suffix), $size - 1);
        }

        $start = self::toInt($first);
        $end = $last === '' ? \PHP_INT_MAX : self::toInt($last);
        if ($end < $start) {
            return RangeRejection::Ignore;
        }
        if ($start >= $size) {
            return RangeRejection::Unsatisfiable;
        }

        return new self($start, \min($end, $size - 1));
    }

    private static function toInt(string $digits): int
    {
        $digits = \ltrim($digits, '0');
        if ($digits === '') {
            return 0;
        }

        return \strlen($digits) > self::MAX_DIGITS ? \PHP_INT_MAX : (int) $digits;
    }
}
