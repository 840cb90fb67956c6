<?php

declare(strict_types=1);

namespace Spindle\Server\Channel;

/**
 * A line on the worker -> master channel that is no message: not JSON, an unknown type, a field
 * missing or of the wrong type, or a line too long. The reader logs it and reads on.
 */
final class MalformedMessage extends \RuntimeException
{
    /** At most this many bytes of the offending line are quoted in the message. */
    private const EXCERPT = 120;

    public static function inLine(string $problem, string $line): self
    {
        $excerpt = \strlen($line) > self::EXCERPT ? \substr($line, 0, self::EXCERPT) . '...' : $line;

        return new self(\sprintf('%s: %s', $problem, \json_encode($excerpt, \JSON_UNESCAPED_SLASHES | \JSON_INVALID_UTF8_SUBSTITUTE)));
    }
}
