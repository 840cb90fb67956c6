<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

/** What SessionWiring did to a kernel's sessions, for the log line at boot. */
final class SessionSetup
{
    private function __construct(
        /** Whether the app's sessions now use Spindle's storage. */
        public readonly bool $installed,
        /** Whether the app has sessions at all (framework.session). */
        public readonly bool $enabled,
        public readonly string $description,
    ) {
    }

    public static function none(): self
    {
        return new self(false, false, 'framework.session is off');
    }

    public static function unchanged(string $reason): self
    {
        return new self(false, true, 'sessions keep the app\'s storage, not safe for requests that run at once: ' . $reason);
    }

    public static function installed(SessionStorageFactory $factory, string $handler): self
    {
        return new self(true, true, \sprintf('sessions use Spindle\'s storage (cookie %s, %s)', $factory->options->name, $handler));
    }
}
