<?php

declare(strict_types=1);

namespace Spindle\HttpClient\Stream;

/**
 * Puts Spindle's wrapper in place of PHP's for http:// and https:// (in a worker, where a
 * blocking read would hold every request up), and gives PHP's back.
 */
final class StreamWrappers
{
    private const SCHEMES = ['http', 'https'];

    private function __construct()
    {
    }

    /** Installs the wrapper unless SPINDLE_URL_STREAMS=native; true when it is installed. */
    public static function install(): bool
    {
        $setting = \getenv('SPINDLE_URL_STREAMS');
        if (\is_string($setting) && \strtolower($setting) === 'native') {
            return false;
        }
        foreach (self::SCHEMES as $scheme) {
            if (\in_array($scheme, \stream_get_wrappers(), true)) {
                \stream_wrapper_unregister($scheme);
            }
            \stream_wrapper_register($scheme, HttpStreamWrapper::class, \STREAM_IS_URL);
        }
        if (!\in_array(ResetWrapper::SCHEME, \stream_get_wrappers(), true)) {
            \stream_wrapper_register(ResetWrapper::SCHEME, ResetWrapper::class);
        }

        return true;
    }

    /** Gives PHP's own wrappers back. */
    public static function uninstall(): void
    {
        foreach (self::SCHEMES as $scheme) {
            @\stream_wrapper_restore($scheme);
        }
    }
}
