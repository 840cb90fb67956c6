<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Architecture;

use PHPUnit\Framework\TestCase;

/** docs/README.md, the index of docs/, links every page of docs/ once, and only pages that exist. */
final class DocsIndexTest extends TestCase
{
    private const DOCS = __DIR__ . '/../../../docs';

    public function testTheIndexLinksEveryPageOnce(): void
    {
        \preg_match_all('/\]\(([^)#]+\.md)\)/', (string) \file_get_contents(self::DOCS . '/README.md'), $matches);
        $linked = $matches[1];
        $pages = \array_values(\array_diff(\array_map('basename', \glob(self::DOCS . '/*.md') ?: []), ['README.md']));
        \sort($pages);
        $sorted = $linked;
        \sort($sorted);

        self::assertSame($pages, $sorted, 'docs/README.md links each page of docs/ once');
    }

    public function testTheReadmeLinksTheIndex(): void
    {
        self::assertStringContainsString('](docs/README.md)', (string) \file_get_contents(self::DOCS . '/../README.md'));
    }
}
