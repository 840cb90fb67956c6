<?php

declare(strict_types=1);

namespace Spindle\Bridge\HttpFoundation;

/**
 * The $_SERVER entries that stay the same for every request a worker serves: where the app's
 * front controller is, whether the public scheme is https, and extra variables (APP_ENV, …)
 * that PHP-FPM would take from its environment.
 *
 * Leave $https false behind a TLS-terminating proxy: the framework learns the scheme from the
 * proxy's X-Forwarded-Proto through its own trusted-proxy configuration.
 */
final class ServerParams
{
    /** @param array<string, string> $extra */
    public function __construct(
        public readonly string $scriptFilename,
        public readonly string $documentRoot,
        public readonly string $scriptName = '/index.php',
        public readonly bool $https = false,
        public readonly string $serverSoftware = 'Spindle',
        public readonly array $extra = [],
    ) {
    }

    /**
     * For the usual layout: the front controller (public/index.php) sits in the document root.
     *
     * @param array<string, string> $extra
     */
    public static function forFrontController(string $frontController, bool $https = false, array $extra = []): self
    {
        return new self($frontController, \dirname($frontController), '/' . \basename($frontController), $https, 'Spindle', $extra);
    }
}
