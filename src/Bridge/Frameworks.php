<?php

declare(strict_types=1);

namespace Spindle\Bridge;

/** The frameworks whose app directories `spindle serve <directory>` recognises, in the order asked. */
final class Frameworks
{
    /** @var list<class-string<FrameworkApp>> */
    public const KNOWN = [
        Laravel\LaravelApp::class,
        Symfony\SymfonyApp::class,
    ];

    /** @return class-string<FrameworkApp>|null */
    public static function detect(string $directory): ?string
    {
        foreach (self::KNOWN as $framework) {
            if ($framework::detect($directory)) {
                return $framework;
            }
        }

        return null;
    }
}
