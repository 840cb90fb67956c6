<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Laravel;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Laravel\InstanceFactory;
use Spindle\Bridge\Laravel\Reset\Resetter;

/** The resetters' table in docs/frameworks.md lists InstanceFactory::RESETTERS, in order, with the app's where they run. */
final class ResetterListTest extends TestCase
{
    public function testTheDocsTableIsTheListInItsOrder(): void
    {
        $docs = (string) \file_get_contents(\dirname(__DIR__, 4) . '/docs/frameworks.md');
        $start = \strpos($docs, '### What is reset between two requests on one instance');
        self::assertIsInt($start);
        $section = \substr($docs, $start, (int) \strpos($docs, "\n### ", $start + 1) - $start);
        \preg_match_all('/^\| (`(\w+)`|\*the app\'s own\*) \|/m', $section, $rows);
        $expected = [];
        foreach (InstanceFactory::RESETTERS as $class) {
            if ($class === InstanceFactory::APP_RESETTERS_BEFORE) {
                $expected[] = "*the app's own*";
            }
            $expected[] = \substr($class, (int) \strrpos($class, '\\') + 1);
        }
        $documented = \array_map(static fn (string $row, string $name): string => $name !== '' ? $name : $row, $rows[1], $rows[2]);
        self::assertSame($expected, $documented);
    }

    public function testEveryEntryIsAResetterListedOnce(): void
    {
        foreach (InstanceFactory::RESETTERS as $class) {
            self::assertTrue(\is_subclass_of($class, Resetter::class), $class);
        }
        self::assertSame(\array_values(\array_unique(InstanceFactory::RESETTERS)), InstanceFactory::RESETTERS);
        self::assertContains(InstanceFactory::APP_RESETTERS_BEFORE, InstanceFactory::RESETTERS);
    }
}
