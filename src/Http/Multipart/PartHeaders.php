<?php

declare(strict_types=1);

namespace Spindle\Http\Multipart;

use Spindle\Http\HttpException;

/**
 * @internal The header grammar of multipart/form-data parts (RFC 7578, RFC 2046, RFC 2231's
 * extended values) and PHP's rules for client filenames and field names, apart from the
 * parser's state machine.
 */
final class PartHeaders
{
    /**
     * @return array<string, string> lower-case names; only the first value of each header
     *
     * @throws HttpException 400
     */
    public static function parseHeaders(string $block): array
    {
        if ($block === '') {
            return [];
        }
        /** @var list<array{string, string}> $lines */
        $lines = [];
        foreach (\explode("\r\n", $block) as $line) {
            if (\preg_match('/[\x00-\x08\x0A-\x1F\x7F]/', $line) === 1) {
                throw new HttpException(400, 'Control character in multipart part header');
            }
            if ($line !== '' && ($line[0] === ' ' || $line[0] === "\t")) {
                $last = \array_key_last($lines);
                if ($last === null) {
                    throw new HttpException(400, 'Multipart part header starts with a continuation line');
                }
                $lines[$last][1] .= ' ' . \trim($line, " \t");
                continue;
            }
            $colon = \strpos($line, ':');
            if ($colon === false || $colon === 0) {
                throw new HttpException(400, 'Malformed multipart part header');
            }
            $name = \substr($line, 0, $colon);
            if (\preg_match('/^[!#$%&\'*+\-.^_`|~0-9A-Za-z]+$/', $name) !== 1) {
                throw new HttpException(400, 'Invalid multipart part header name');
            }
            $lines[] = [\strtolower($name), \trim(\substr($line, $colon + 1), " \t")];
        }

        $headers = [];
        foreach ($lines as [$name, $value]) {
            if (isset($headers[$name])) {
                if ($name === 'content-disposition' || $name === 'content-type') {
                    throw new HttpException(400, \sprintf('Repeated %s header in multipart part', $name));
                }
                continue;
            }
            $headers[$name] = $value;
        }

        return $headers;
    }

    /**
     * Parses "; name=value; name="quoted value"" parameter lists. Names are lower-cased.
     *
     * @return array<string, string>|null null when malformed (unterminated quote, text after
     *         a quoted value, or a repeated parameter)
     */
    public static function parseParameters(string $input): ?array
    {
        $params = [];
        $length = \strlen($input);
        $i = 0;
        while ($i < $length) {
            $c = $input[$i];
            if ($c === ';' || $c === ' ' || $c === "\t") {
                ++$i;
                continue;
            }
            $span = \strcspn($input, '=;', $i);
            $name = \strtolower(\rtrim(\substr($input, $i, $span), " \t"));
            $i += $span;
            if ($i >= $length || $input[$i] === ';') {
                continue; // a parameter without a value carries nothing
            }
            ++$i;
            while ($i < $length && ($input[$i] === ' ' || $input[$i] === "\t")) {
                ++$i;
            }
            if ($i < $length && $input[$i] === '"') {
                ++$i;
                $value = '';
                $closed = false;
                while ($i < $length) {
                    $c = $input[$i];
                    if ($c === '\\' && $i + 1 < $length && ($input[$i + 1] === '"' || $input[$i + 1] === '\\')) {
                        $value .= $input[$i + 1];
                        $i += 2;
                        continue;
                    }
                    ++$i;
                    if ($c === '"') {
                        $closed = true;
                        break;
                    }
                    $value .= $c;
                }
                if (!$closed) {
                    return null;
                }
                while ($i < $length && ($input[$i] === ' ' || $input[$i] === "\t")) {
                    ++$i;
                }
                if ($i < $length && $input[$i] !== ';') {
                    return null;
                }
            } else {
                $span = \strcspn($input, ';', $i);
                $value = \rtrim(\substr($input, $i, $span), " \t");
                $i += $span;
            }
            if (\array_key_exists($name, $params)) {
                return null;
            }
            $params[$name] = $value;
        }

        return $params;
    }

    /** Decodes an RFC 8187 extended value (charset'language'percent-encoded); null when absent or malformed. */
    public static function decodeExtendedValue(?string $value): ?string
    {
        if ($value === null || \preg_match("/^[^']*'[^']*'(.*)$/s", $value, $m) !== 1) {
            return null;
        }

        return \rawurldecode($m[1]);
    }

    public static function basename(string $filename): string
    {
        $slash = \strrpos($filename, '/');
        $backslash = \strrpos($filename, '\\');
        $cut = \max($slash === false ? -1 : $slash, $backslash === false ? -1 : $backslash);

        return $cut < 0 ? $filename : \substr($filename, $cut + 1);
    }

    /**
     * PHP refuses to "repair" the field name of a file: brackets must balance and a "]"
     * may only be followed by "[" or the end of the name.
     */
    public static function isRepairFreeName(string $name): bool
    {
        $depth = 0;
        $length = \strlen($name);
        for ($i = 0; $i < $length; ++$i) {
            if ($name[$i] === '[') {
                ++$depth;
            } elseif ($name[$i] === ']') {
                --$depth;
                if ($i + 1 < $length && $name[$i + 1] !== '[') {
                    return false;
                }
            }
            if ($depth < 0) {
                return false;
            }
        }

        return $depth === 0;
    }

    public static function isValidBoundary(string $boundary): bool
    {
        $length = \strlen($boundary);

        return $length >= 1
            && $length <= 70
            && $boundary[$length - 1] !== ' '
            && \preg_match('/^[\x20-\x7E]+$/', $boundary) === 1;
    }
}
