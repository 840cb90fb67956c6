<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Architecture;

use PHPUnit\Framework\TestCase;
use Spindle\Tests\Architecture\LayerTable;

/**
 * docs/architecture.md's three tables of what may use what (its "Layers" section) say what
 * tests/Architecture/LayerTable.php says, which is what the phpat rules enforce: the folders and
 * what each may use, the classes that may use more, the third-party namespaces and their places.
 * The prose columns (what a layer owns, why) are the doc's own.
 */
final class DocsLayerTableTest extends TestCase
{
    private const DOC = __DIR__ . '/../../../docs/architecture.md';

    public function testTheDocsShowTheLayersOfTheCode(): void
    {
        $doc = self::tables((string) \file_get_contents(self::DOC));

        self::assertSame(self::sorted(LayerTable::LAYERS), self::sorted($doc['folder'] ?? []), 'docs/architecture.md: the table of layers');
        self::assertSame(self::sorted(LayerTable::WIDER), self::sorted($doc['class'] ?? []), 'docs/architecture.md: the classes that may use more than their layer');
        self::assertSame(self::sorted(LayerTable::THIRD_PARTY), self::sorted($doc['namespace'] ?? []), 'docs/architecture.md: the third-party namespaces');
    }

    public function testEveryFolderOfSrcIsALayerOfTheTable(): void
    {
        $folders = \array_map('basename', \glob(\dirname(__DIR__, 3) . '/src/*', \GLOB_ONLYDIR) ?: []);
        \sort($folders);
        $layers = \array_keys(LayerTable::LAYERS);
        \sort($layers);

        self::assertSame($folders, $layers);
    }

    public function testEveryPlaceTheTableNamesExists(): void
    {
        $places = [];
        foreach (LayerTable::LAYERS as $layer => $uses) {
            \array_push($places, $layer, ...$uses);
        }
        foreach (LayerTable::WIDER as $class => $uses) {
            \array_push($places, $class, ...$uses);
        }
        foreach (LayerTable::THIRD_PARTY as $inPlaces) {
            \array_push($places, ...$inPlaces);
        }

        $missing = \array_values(\array_filter(\array_unique($places), static fn (string $place): bool => !LayerTable::exists($place)));

        self::assertSame([], $missing, 'places in LayerTable that are neither a folder nor a file of src/');
    }

    public function testTheParserReadsEachTableAndSeesAChangedCell(): void
    {
        $markdown = <<<'MD'
            ## Layers

            | folder | what it owns | may use | why |
            | --- | --- | --- | --- |
            | `src/Loop/` | the loop | — | lowest |
            | `src/Http/` | the parser (`Parser/`) | `Loop` | sans-I/O |

            | class | may also use | why |
            | --- | --- | --- |
            | `Supervisor\ServeCommand` | `Http\HttpLimits`, `Loop\EventLoopKind` | options |

            | namespace | only in | why |
            | --- | --- | --- |
            | `Revolt` | `Loop`, `Http` | the loop |

            ## The master

            | folder | not | a layer |
            | --- | --- | --- |
            | `src/Nope/` | x | `Loop` |
            MD;

        self::assertSame([
            'folder' => ['Loop' => [], 'Http' => ['Loop']],
            'class' => ['Supervisor\ServeCommand' => ['Http\HttpLimits', 'Loop\EventLoopKind']],
            'namespace' => ['Revolt' => ['Loop', 'Http']],
        ], self::tables($markdown));
        self::assertNotSame(
            self::tables($markdown),
            self::tables(\str_replace('| `Loop`, `Http` |', '| `Loop` |', $markdown)),
        );
    }

    /**
     * The tables of the "## Layers" section, by the title of their first column: each row's first
     * cell (a code span; `src/X/` for a folder) => the code spans of the third cell ("may use")
     * for the layers, of the second for the others.
     *
     * @return array<string, array<string, list<string>>>
     */
    private static function tables(string $markdown): array
    {
        if (\preg_match('/^## Layers\n(.*?)(?=^## )/ms', $markdown, $section) !== 1) {
            return [];
        }
        $tables = [];
        $kind = null;
        foreach (\explode("\n", $section[1]) as $line) {
            if (!\str_starts_with($line, '|')) {
                $kind = null;
                continue;
            }
            $cells = \array_map('trim', \explode('|', \trim($line, " |")));
            if ($kind === null) {
                $kind = $cells[0];
                continue;
            }
            if (\preg_match('/^-+$/', $cells[0]) === 1) {
                continue;
            }
            $key = self::spans($cells[0])[0] ?? $cells[0];
            if ($kind === 'folder') {
                $key = \trim(\substr($key, \strlen('src/')), '/');
            }
            $tables[$kind][\str_replace('/', '\\', $key)] = self::spans($cells[$kind === 'folder' ? 2 : 1] ?? '');
        }

        return $tables;
    }

    /** @return list<string> */
    private static function spans(string $cell): array
    {
        \preg_match_all('/`([^`]+)`/', $cell, $matches);

        return $matches[1];
    }

    /**
     * @param array<string, list<string>> $table
     *
     * @return array<string, list<string>>
     */
    private static function sorted(array $table): array
    {
        \ksort($table);

        return \array_map(static function (array $values): array {
            \sort($values);

            return $values;
        }, $table);
    }
}
