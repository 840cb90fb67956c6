<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

/**
 * Session data to and from the bytes a save handler stores, as PHP's session_encode() and
 * session_decode() make and read them, without PHP's session module (whose state is
 * process-wide).
 *
 * PHP's "php" format is `key|value` per entry, the values serialized with one reference table
 * for the whole session. It is read by turning it into the serialize() form of an array (every
 * back-reference `r:N;` / `R:N;` moves up one slot, the array's own) and written the other way
 * round, so references between entries survive as PHP keeps them. As in PHP, integer keys and
 * keys containing `|` or `!` cannot be written in that format: they are left out, with a warning.
 */
final class SessionSerializer
{
    public function __construct(public readonly SerializeHandler $handler)
    {
    }

    /** @param array<array-key, mixed> $data */
    public function encode(array $data): string
    {
        if ($data === []) {
            return '';
        }

        return match ($this->handler) {
            SerializeHandler::PhpSerialize => \serialize($data),
            SerializeHandler::Igbinary => (string) \igbinary_serialize($data),
            SerializeHandler::Php => self::encodePhp($data),
        };
    }

    /**
     * @return array<array-key, mixed>
     *
     * @throws \UnexpectedValueException when the bytes are not session data of this format
     */
    public function decode(string $bytes): array
    {
        if ($bytes === '') {
            return [];
        }
        $value = match ($this->handler) {
            SerializeHandler::PhpSerialize => self::unserialize($bytes),
            SerializeHandler::Igbinary => \igbinary_unserialize($bytes),
            SerializeHandler::Php => self::unserialize(self::phpToArray($bytes)),
        };
        if (!\is_array($value)) {
            throw new \UnexpectedValueException(\sprintf('Session data is not an array in the "%s" format', $this->handler->value));
        }

        return $value;
    }

    /** @param array<array-key, mixed> $data */
    private static function encodePhp(array $data): string
    {
        $serialized = \serialize($data);
        // a:COUNT:{ ... }
        $position = \strpos($serialized, '{');
        \assert($position !== false);
        ++$position;
        $out = '';
        $end = \strlen($serialized) - 1;
        while ($position < $end) {
            $key = '';
            $position = self::scan($serialized, $position, $key, 0);
            $value = '';
            $position = self::scan($serialized, $position, $value, -1);
            if ($key[0] !== 's') {
                \trigger_error(\sprintf('Session data: integer key %s is skipped, as PHP does', \substr($key, 2, -1)), \E_USER_NOTICE);

                continue;
            }
            $name = \substr($key, \strpos($key, '"') + 1, -2);
            if (\strpbrk($name, '|!') !== false) {
                \trigger_error(\sprintf('Session data: key "%s" contains | or ! and is skipped', $name), \E_USER_WARNING);

                continue;
            }
            $out .= $name . '|' . $value;
        }

        return $out;
    }

    /** The "php" format rewritten as the serialize() form of the same array. */
    private static function phpToArray(string $bytes): string
    {
        $length = \strlen($bytes);
        $position = 0;
        $count = 0;
        $body = '';
        while ($position < $length) {
            $bar = \strpos($bytes, '|', $position);
            if ($bar === false) {
                throw new \UnexpectedValueException(\sprintf('Session data: no "|" after offset %d', $position));
            }
            $name = \substr($bytes, $position, $bar - $position);
            $value = '';
            $position = self::scan($bytes, $bar + 1, $value, 1);
            $body .= 's:' . \strlen($name) . ':"' . $name . '";' . $value;
            ++$count;
        }

        return 'a:' . $count . ':{' . $body . '}';
    }

    private static function unserialize(string $bytes): mixed
    {
        $value = @\unserialize($bytes);
        if ($value === false && $bytes !== 'b:0;') {
            throw new \UnexpectedValueException('Session data cannot be unserialized');
        }

        return $value;
    }

    /**
     * Reads one serialized value at $position, appends it to $out with its back-references
     * moved by $shift, and returns the position after it.
     */
    private static function scan(string $s, int $position, string &$out, int $shift): int
    {
        $type = $s[$position] ?? '';
        switch ($type) {
            case 'N':
                self::expect($s, $position + 1, ';');
                $out .= 'N;';

                return $position + 2;
            case 'b':
            case 'i':
            case 'd':
                self::expect($s, $position + 1, ':');
                $semicolon = self::find($s, ';', $position + 2);
                $out .= \substr($s, $position, $semicolon + 1 - $position);

                return $semicolon + 1;
            case 'r':
            case 'R':
                self::expect($s, $position + 1, ':');
                $semicolon = self::find($s, ';', $position + 2);
                $slot = \substr($s, $position + 2, $semicolon - $position - 2);
                if (!\ctype_digit($slot)) {
                    throw new \UnexpectedValueException(\sprintf('Session data: bad reference at offset %d', $position));
                }
                $out .= $type . ':' . ((int) $slot + $shift) . ';';

                return $semicolon + 1;
            case 's':
            case 'E':
                [$text, $after] = self::lengthPrefixed($s, $position);
                self::expect($s, $after, ';');
                $out .= $type . ':' . \strlen($text) . ':"' . $text . '";';

                return $after + 1;
            case 'a':
                self::expect($s, $position + 1, ':');
                $brace = self::find($s, ':', $position + 2);
                $count = self::count($s, $position + 2, $brace);
                self::expect($s, $brace + 1, '{');
                $out .= 'a:' . $count . ':{';

                return self::members($s, $brace + 2, $count, $out, $shift);
            case 'O':
            case 'C':
                [$class, $after] = self::lengthPrefixed($s, $position);
                self::expect($s, $after, ':');
                $colon = self::find($s, ':', $after + 1);
                $count = self::count($s, $after + 1, $colon);
                self::expect($s, $colon + 1, '{');
                $out .= $type . ':' . \strlen($class) . ':"' . $class . '":' . $count . ':{';
                if ($type === 'O') {
                    return self::members($s, $colon + 2, $count, $out, $shift);
                }
                // Serializable::serialize() output: opaque, $count bytes.
                self::expect($s, $colon + 2 + $count, '}');
                $out .= \substr($s, $colon + 2, $count) . '}';

                return $colon + 3 + $count;
            default:
                throw new \UnexpectedValueException(\sprintf('Session data: unexpected "%s" at offset %d', $type, $position));
        }
    }

    /** $count key/value pairs and the closing brace. */
    private static function members(string $s, int $position, int $count, string &$out, int $shift): int
    {
        for ($i = 0; $i < $count; ++$i) {
            $type = $s[$position] ?? '';
            if ($type !== 'i' && $type !== 's') {
                throw new \UnexpectedValueException(\sprintf('Session data: bad key at offset %d', $position));
            }
            $position = self::scan($s, $position, $out, $shift);
            $position = self::scan($s, $position, $out, $shift);
        }
        self::expect($s, $position, '}');
        $out .= '}';

        return $position + 1;
    }

    /**
     * `X:LEN:"…"` at $position: the text and the position after its closing quote.
     *
     * @return array{string, int}
     */
    private static function lengthPrefixed(string $s, int $position): array
    {
        self::expect($s, $position + 1, ':');
        $colon = self::find($s, ':', $position + 2);
        $length = self::count($s, $position + 2, $colon);
        self::expect($s, $colon + 1, '"');
        self::expect($s, $colon + 2 + $length, '"');

        return [\substr($s, $colon + 2, $length), $colon + 3 + $length];
    }

    private static function count(string $s, int $from, int $to): int
    {
        $digits = \substr($s, $from, $to - $from);
        if (!\ctype_digit($digits)) {
            throw new \UnexpectedValueException(\sprintf('Session data: bad length at offset %d', $from));
        }

        return (int) $digits;
    }

    private static function find(string $s, string $char, int $from): int
    {
        $found = \strpos($s, $char, \min($from, \strlen($s)));
        if ($found === false) {
            throw new \UnexpectedValueException(\sprintf('Session data: "%s" expected after offset %d', $char, $from));
        }

        return $found;
    }

    private static function expect(string $s, int $position, string $char): void
    {
        if (($s[$position] ?? '') !== $char) {
            throw new \UnexpectedValueException(\sprintf('Session data: "%s" expected at offset %d', $char, $position));
        }
    }
}
