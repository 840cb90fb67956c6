<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Architecture;

use PHPUnit\Framework\TestCase;

/**
 * The worker's services are handed to what the worker builds (Server\WorkerServices, and the
 * bridge's Bridge\BridgeServices through them); current(), the way in through the loop's driver,
 * is for the entry points nobody can hand anything: the public functions, and what a framework
 * makes by name or a user constructs. This keeps the registry from becoming a service locator
 * again: a new current() call is a new entry in this list, with its reason in review.
 */
final class WorkerServicesEntryPointsTest extends TestCase
{
    private const SRC = __DIR__ . '/../../../src';

    /** The files of src/ that may call WorkerServices::current() or BridgeServices::current(), and why. */
    private const ENTRY_POINTS = [
        'functions.php' => 'Spindle\metrics(), every(), task(): the app calls them',
        'Server/SharedCache/SharedCache.php' => 'SharedCache::store(): the app and the framework cache stores call it',
        'Bridge/BridgeServices.php' => 'its own current(), on the worker\'s',
        'Bridge/HashOffload.php' => 'the hashers a framework makes by name',
        'Bridge/Laravel/SpindleMySqlConnector.php' => 'Laravel makes its connectors by name',
        'Bridge/Laravel/SpindlePostgresConnector.php' => 'as the MySQL connector',
        'Bridge/Laravel/ConcurrencyDriver.php' => 'Laravel\'s Concurrency manager makes it by name',
        'Bridge/Peers/PeerLinks.php' => 'the links a user hands to the PusherServer they construct (a plain handler)',
        'Bridge/Laravel/Broadcasting/PusherConnections.php' => 'the broadcaster Laravel makes by name (and the routes, from the same config)',
    ];

    public function testOnlyEntryPointsReachTheServicesThroughTheLoop(): void
    {
        $callers = [];
        $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator(self::SRC, \FilesystemIterator::SKIP_DOTS));
        foreach ($files as $file) {
            \assert($file instanceof \SplFileInfo);
            if ($file->getExtension() !== 'php') {
                continue;
            }
            $code = (string) \file_get_contents($file->getPathname());
            if (\preg_match('/\b(?:WorkerServices|BridgeServices)::current\(\)/', $code) === 1) {
                $callers[] = \substr($file->getPathname(), \strlen(self::SRC) + 1);
            }
        }
        \sort($callers);
        $allowed = \array_keys(self::ENTRY_POINTS);
        \sort($allowed);

        self::assertSame($allowed, $callers, 'WorkerServices::current() / BridgeServices::current() outside the listed entry points: hand the services in instead');
    }

    public function testTheLoopHoldsNoMapOfServices(): void
    {
        $driver = (string) \file_get_contents(self::SRC . '/Loop/ContextDriver.php');

        self::assertDoesNotMatchRegularExpression('/function (?:service|findService)\(/', $driver);
        self::assertDoesNotMatchRegularExpression('/array<class-string, object>/', $driver);
    }
}
