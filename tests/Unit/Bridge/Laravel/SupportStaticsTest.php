<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Laravel\SupportStatics;

final class SupportStaticsTest extends TestCase
{
    protected function tearDown(): void
    {
        AppStatics::$current = null;
        AppStatics::$list = ['booted'];
    }

    public function testTheAppsStaticsAreCapturedRestoredAndPutBackToTheirDefaults(): void
    {
        $statics = SupportStatics::forApp([
            AppStatics::class => ['current', 'list', 'instanceProperty', 'missing'],
            'App\NotInstalled' => ['anything'],
        ]);
        $names = $statics->names();
        self::assertContains(AppStatics::class . '::$current', $names);
        self::assertContains(AppStatics::class . '::$list', $names);
        self::assertNotContains(AppStatics::class . '::$instanceProperty', $names);
        self::assertNotContains(AppStatics::class . '::$missing', $names);
        self::assertNotContains('App\NotInstalled::$anything', $names);

        AppStatics::$current = 'one';
        $one = $statics->capture();
        AppStatics::$current = 'two';
        AppStatics::$list[] = 'two';
        $statics->restore($one);
        self::assertSame(['one', ['booted']], [AppStatics::$current, AppStatics::$list]);
        $statics->restoreDefaults();
        self::assertSame([null, ['booted']], [AppStatics::$current, AppStatics::$list]);
    }

    public function testLivewiresTableAppliesOnlyWhereLivewireIsRegistered(): void
    {
        $without = SupportStatics::forApp();
        foreach ($without->names() as $name) {
            self::assertStringStartsNotWith('Livewire\\', $name);
        }
        // Spindle's own dependencies do not include Livewire: its classes are skipped.
        self::assertFalse(\class_exists('Livewire\LivewireManager'));
        self::assertSame($without->names(), SupportStatics::forApp([], true)->names());
    }

    public function testTheDocsTableIsTheCodesTable(): void
    {
        $docs = (string) \file_get_contents(\dirname(__DIR__, 4) . '/docs/frameworks.md');
        $start = \strpos($docs, '### The statics swapped per instance');
        self::assertIsInt($start);
        $section = \substr($docs, $start, (int) \strpos($docs, "\n### ", $start + 1) - $start);
        \preg_match_all('/^\| `(\w+)` \| `([\w\\\\]+)` \| (.+) \|$/m', $section, $rows, \PREG_SET_ORDER);
        $documented = [];
        foreach ($rows as [, $part, $class, $properties]) {
            \preg_match_all('/`\$(\w+)`/', $properties, $names);
            $documented[$part][$class] = $names[1];
        }
        self::assertSame([
            'FRAMEWORK' => SupportStatics::FRAMEWORK,
            'HOOKS' => SupportStatics::HOOKS,
            'SWAPPED' => SupportStatics::SWAPPED,
            'BOOTED' => SupportStatics::BOOTED,
            'LIVEWIRE' => SupportStatics::LIVEWIRE,
        ], $documented);
    }

    public function testATypedStaticWithoutAValueIsRefusedByName(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('spindle.statics: ' . UnsetStatic::class . '::$value is a typed static property without a value');
        SupportStatics::forApp([UnsetStatic::class => ['value']]);
    }

    public function testTwoTablesOverTheSameStaticSeeEachOthersWrites(): void
    {
        $one = SupportStatics::forApp([AppStatics::class => ['current']]);
        $two = new SupportStatics([AppStatics::class => ['current', 'list']]);
        AppStatics::$current = 'set directly';
        $captured = $two->capture();
        self::assertSame('set directly', $captured[\count($captured) - 2]);
        $one->restoreDefaults();
        self::assertNull(AppStatics::$current);
        $two->restore($captured);
        self::assertSame('set directly', AppStatics::$current);
    }

    /** @return iterable<string, array{mixed}> */
    public static function malformed(): iterable
    {
        yield 'a list of classes' => [[AppStatics::class]];
        yield 'a property name alone' => [[AppStatics::class => 'current']];
        yield 'a non-string property' => [[AppStatics::class => [1]]];
    }

    /** @dataProvider malformed */
    public function testAMalformedTableIsRefused(mixed $table): void
    {
        \assert(\is_array($table));
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('spindle.statics must map class names to lists of static property names');
        SupportStatics::forApp($table);
    }
}

/** @internal statics of an app, as config('spindle.statics') would list them */
final class AppStatics
{
    public static ?string $current = null;
    /** @var list<string> */
    public static array $list = ['booted'];
    public string $instanceProperty = '';
}

/** @internal a typed static without a default, which cannot be swapped */
final class UnsetStatic
{
    public static string $value;
}
