<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\StateCheck;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\StateCheck\AppClasses;
use Spindle\Bridge\StateCheck\ResetAdvice;
use Spindle\Bridge\StateCheck\StateWatch;
use Spindle\Tests\Unit\Server\MemoryLogger;

/**
 * The state check on classes written into a temporary app directory: which classes count as
 * the app's, what is compared (statics, the app-declared properties of the services a scope had
 * before the request), and that each property is reported once.
 */
final class StateWatchTest extends TestCase
{
    private static string $app = '';
    private static int $counter = 0;

    public static function setUpBeforeClass(): void
    {
        $app = \sys_get_temp_dir() . '/spindle-state-watch-' . \bin2hex(\random_bytes(4));
        \mkdir($app . '/src', 0700, true);
        \mkdir($app . '/vendor/lib', 0700, true);
        self::$app = (string) \realpath($app);
    }

    public static function tearDownAfterClass(): void
    {
        foreach ([...\glob(self::$app . '/src/*.php') ?: [], ...\glob(self::$app . '/vendor/lib/*.php') ?: []] as $file) {
            \unlink($file);
        }
        @\rmdir(self::$app . '/vendor/lib');
        @\rmdir(self::$app . '/vendor');
        @\rmdir(self::$app . '/src');
        @\rmdir(self::$app);
    }

    /** Declares a class in a file of the app (or of its vendor/ with $where) and returns its name. */
    private static function declare(string $body, string $where = 'src', string $extends = ''): string
    {
        $name = 'StateWatchFixture' . ++self::$counter . '_' . \bin2hex(\random_bytes(3));
        $class = 'Spindle\Tests\Unit\Bridge\StateCheck\Generated\\' . $name;
        $file = self::$app . '/' . $where . '/' . $name . '.php';
        \file_put_contents($file, "<?php\nnamespace Spindle\\Tests\\Unit\\Bridge\\StateCheck\\Generated;\nclass $name" . ($extends !== '' ? " extends \\$extends" : '') . " {\n$body\n}\n");
        require $file;

        return $class;
    }

    private function watch(MemoryLogger $logger, array $covered = []): StateWatch
    {
        return new StateWatch(new AppClasses(self::$app), $logger, ResetAdvice::Laravel, $covered);
    }

    public function testAStaticChangedByARequestIsReportedOnceWithTheRequestAndTheFix(): void
    {
        $class = self::declare('public static ?string $current = null; public static int $untouched = 1;');
        $logger = new MemoryLogger();
        $watch = $this->watch($logger);
        $scope = new \stdClass();
        $watch->observe($scope, []);

        $class::$current = 'first';
        $watch->check($scope, [], 'GET /first (route first)');
        $class::$current = 'second';
        $watch->check($scope, [], 'GET /second');

        $warnings = $logger->messages('warning');
        self::assertCount(1, $warnings);
        self::assertStringContainsString($class . '::$current (a static property) changed during GET /first (route first), from NULL to \'first\'', $warnings[0]);
        self::assertStringContainsString("config('spindle.resetters')", $warnings[0]);
        self::assertSame([$class . '::$current'], $watch->reported());
    }

    public function testAStaticPutBackBeforeTheCheckIsNotReported(): void
    {
        $class = self::declare('public static int $depth = 0;');
        $logger = new MemoryLogger();
        $watch = $this->watch($logger);
        $scope = new \stdClass();
        $watch->observe($scope, []);

        ++$class::$depth;
        --$class::$depth;
        $watch->check($scope, [], 'GET /');

        self::assertSame([], $logger->messages('warning'));
    }

    public function testCoveredStaticsAndVendorClassesAreLeftOut(): void
    {
        $covered = self::declare('public static string $value = "a";');
        $vendor = self::declare('public static string $value = "a";', 'vendor/lib');
        $logger = new MemoryLogger();
        $watch = $this->watch($logger, [$covered . '::$value']);
        $scope = new \stdClass();
        $watch->observe($scope, []);

        $covered::$value = 'b';
        $vendor::$value = 'b';
        $watch->check($scope, [], 'GET /');

        self::assertSame([], $logger->messages('warning'));
    }

    public function testAClassFirstLoadedDuringTheRequestIsComparedWithItsDefaults(): void
    {
        $logger = new MemoryLogger();
        $watch = $this->watch($logger);
        $scope = new \stdClass();
        $watch->observe($scope, []);

        $changed = self::declare('public static array $seen = [];');
        $changed::$seen[] = 'x';
        $kept = self::declare('public static array $seen = [];');
        $watch->check($scope, [], 'POST /load');

        $warnings = $logger->messages('warning');
        self::assertCount(1, $warnings);
        self::assertStringContainsString($changed . '::$seen (a static property) changed during POST /load, from an array of 0 to an array of 1', $warnings[0]);
        self::assertStringNotContainsString($kept, \implode("\n", $warnings));
    }

    public function testTheAppDeclaredPropertiesOfTheServicesKeptAreCompared(): void
    {
        $base = self::declare('private int $counter = 0; public function bump(): void { ++$this->counter; }', 'vendor/lib');
        $class = self::declare(
            'private ?string $last = null; protected array $items = []; public function __construct(public readonly string $name = "n") {} '
            . 'public function record(string $v): void { $this->last = $v; $this->items[] = $v; }',
            'src',
            $base,
        );
        $service = new $class();
        $vendorOnly = new $base();
        $plain = new \stdClass();
        $logger = new MemoryLogger();
        $watch = new StateWatch(new AppClasses(self::$app), $logger, ResetAdvice::Symfony);
        $scope = new \stdClass();
        $watch->observe($scope, ['service' => $service, 'vendor' => $vendorOnly, 'plain' => $plain]);

        $service->record('x');
        $service->bump();
        $vendorOnly->bump();
        $plain->dynamic = 1;
        $watch->check($scope, ['service' => $service, 'vendor' => $vendorOnly, 'plain' => $plain], 'GET /record');

        $warnings = $logger->messages('warning');
        self::assertCount(2, $warnings, \implode("\n", $warnings));
        self::assertStringContainsString($class . '::$last (a service kept between requests) changed during GET /record, from NULL to \'x\'', $warnings[0]);
        self::assertStringContainsString('ResetInterface on ' . $class, $warnings[0]);
        self::assertStringContainsString($class . '::$items (a service kept between requests) changed during GET /record, from an array of 0 to an array of 1', $warnings[1]);
    }

    public function testAServiceMadeDuringARequestIsComparedFromTheNextOn(): void
    {
        $class = self::declare('public ?string $controller = null;');
        $logger = new MemoryLogger();
        $watch = $this->watch($logger);
        $scope = new \stdClass();
        $watch->observe($scope, []);

        $listener = new $class();
        $listener->controller = 'hello';
        $watch->check($scope, [$listener], 'GET /hello');
        self::assertSame([], $logger->messages('warning'));

        $listener->controller = 'hello';
        $watch->check($scope, [$listener], 'GET /hello');
        self::assertSame([], $logger->messages('warning'));

        $listener->controller = 'visits';
        $watch->check($scope, [$listener], 'GET /visits');
        self::assertCount(1, $logger->messages('warning'));
        self::assertStringContainsString("from 'hello' to 'visits'", $logger->messages('warning')[0]);
    }

    public function testEachScopeKeepsItsOwnServices(): void
    {
        $class = self::declare('public int $n = 0;');
        $first = new $class();
        $second = new $class();
        $logger = new MemoryLogger();
        $watch = $this->watch($logger);
        $a = new \stdClass();
        $b = new \stdClass();
        $watch->observe($a, [$first]);
        $watch->observe($b, [$second]);

        $second->n = 5;
        $watch->check($a, [$first], 'GET /on-a');
        self::assertSame([], $logger->messages('warning'));
        $watch->check($b, [$second], 'GET /on-b');
        self::assertCount(1, $logger->messages('warning'));
        self::assertStringContainsString('GET /on-b', $logger->messages('warning')[0]);
    }

    public function testSwitchedOn(): void
    {
        foreach ([true, 1, '1', 'true', 'yes', 'on'] as $on) {
            self::assertTrue(StateWatch::switchedOn($on), \var_export($on, true));
        }
        foreach ([false, null, 0, '0', '', 'false', 'off', 'no', []] as $off) {
            self::assertFalse(StateWatch::switchedOn($off), \var_export($off, true));
        }
    }
}
