<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Stream;

/**
 * @internal A stream wrapper that does nothing, opened at the start of each URL stream open.
 *
 * PHP refuses to open a user-wrapper URL while it is still opening the same URL ("infinite
 * recursion prevented"): it remembers the one file name being opened, and with fibers two
 * requests can open the same URL at once. Opening any other user-wrapper stream clears that
 * memory when it returns, so the second open goes through.
 */
final class ResetWrapper
{
    public const SCHEME = 'spindle-reset';

    /** @var resource|null */
    public $context;

    public function stream_open(string $path, string $mode, int $options, ?string &$openedPath): bool
    {
        return true;
    }

    public function stream_read(int $count): string
    {
        return '';
    }

    public function stream_eof(): bool
    {
        return true;
    }

    public static function clearOpeningName(): void
    {
        $handle = @\fopen(self::SCHEME . '://', 'r');
        if (\is_resource($handle)) {
            \fclose($handle);
        }
    }
}
