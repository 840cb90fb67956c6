<?php

declare(strict_types=1);

namespace Spindle\Tests\Architecture;

use PHPat\Selector\Selector;
use PHPat\Selector\SelectorInterface;
use PHPat\Test\Builder\Rule;
use PHPat\Test\PHPat;

/**
 * LayerTable as phpat rules, checked by PHPStan in the test command: a dependency the table does
 * not allow fails CI. Each rule is an allow-list (`canOnlyDependOn`):
 *
 * - each layer's classes use their own layer, the layers the table lists for it, and nothing
 *   else of Spindle's (the classes of LayerTable::WIDER have a rule of their own with their
 *   extra allowance);
 * - Spindle's classes use Spindle and the third-party namespaces of the table, nothing else
 *   (PHP's own classes aside: `phpat.ignore_built_in_classes` in phpstan.neon.dist);
 * - a third-party namespace is used only in the places its row lists.
 *
 * Class names written as strings (tables of statics, `class_exists()` checks) are beyond phpat:
 * tests/Unit/Architecture/ClassNamesInStringsTest checks those against the same table.
 */
final class LayerRules
{
    /** @return iterable<string, Rule> */
    public function testEachLayerUsesOnlyTheLayersItsRowAllows(): iterable
    {
        foreach (LayerTable::LAYERS as $layer => $allowed) {
            $wider = \array_values(\array_filter(
                \array_keys(LayerTable::WIDER),
                static fn (string $class): bool => LayerTable::covers($layer, $class),
            ));
            $subject = PHPat::rule()->classes(self::place($layer));
            if ($wider !== []) {
                $subject = $subject->excluding(...\array_map(self::place(...), $wider));
            }
            yield $layer => $subject->canOnlyDependOn()->classes(...self::targets($layer, $allowed))
                ->because(self::tip(\sprintf('Spindle\\%s may use %s', $layer, self::listed($allowed))));
        }
    }

    /** @return iterable<string, Rule> */
    public function testTheWiderClassesUseOnlyTheirLayerAndTheirOwnAllowance(): iterable
    {
        foreach (LayerTable::WIDER as $class => $extra) {
            $layer = \explode('\\', $class)[0];
            yield $class => PHPat::rule()
                ->classes(self::place($class))
                ->canOnlyDependOn()
                ->classes(...self::targets($layer, [...LayerTable::LAYERS[$layer], ...$extra]))
                ->because(self::tip(\sprintf('Spindle\\%s may use %s', $class, self::listed([...LayerTable::LAYERS[$layer], ...$extra]))));
        }
    }

    public function testSpindleUsesOnlyTheThirdPartyNamespacesOfTheTable(): Rule
    {
        return PHPat::rule()
            ->classes(...self::layers())
            ->canOnlyDependOn()
            ->classes(
                Selector::inNamespace('Spindle'),
                ...\array_map(static fn (string $namespace) => Selector::inNamespace($namespace), \array_keys(LayerTable::THIRD_PARTY)),
            )
            ->because(self::tip('a third-party namespace needs a row in the table of third-party namespaces before its first use'));
    }

    /** @return iterable<string, Rule> */
    public function testEachThirdPartyNamespaceStaysInItsPlaces(): iterable
    {
        foreach (LayerTable::THIRD_PARTY as $namespace => $places) {
            $target = PHPat::rule()
                ->classes(...self::layers())
                ->excluding(...\array_map(self::place(...), $places))
                ->shouldNotDependOn()
                ->classes(Selector::inNamespace($namespace));
            $nested = \array_values(\array_filter(
                \array_keys(LayerTable::THIRD_PARTY),
                static fn (string $other): bool => $other !== $namespace && \str_starts_with($other, $namespace . '\\'),
            ));
            $tip = self::tip(\sprintf('%s only in %s', $namespace, \implode(', ', $places)));
            yield $namespace => $nested === []
                ? $target->because($tip)
                : $target->excluding(...\array_map(static fn (string $other) => Selector::inNamespace($other), $nested))->because($tip);
        }
    }

    /**
     * What a class of $layer may use: its layer, $allowed (layers or classes), and anything
     * outside Spindle (the third-party rules rule that).
     *
     * @param list<string> $allowed
     *
     * @return list<SelectorInterface>
     */
    private static function targets(string $layer, array $allowed): array
    {
        return [
            self::place($layer),
            ...\array_map(self::place(...), $allowed),
            Selector::NoneOf(Selector::inNamespace('Spindle')),
        ];
    }

    private static function tip(string $rule): string
    {
        return $rule . ' (docs/architecture.md, "Layers"; the table is tests/Architecture/LayerTable.php)';
    }

    /** @param list<string> $places */
    private static function listed(array $places): string
    {
        return $places === [] ? 'no other layer' : 'only ' . \implode(', ', $places);
    }

    /** @return list<SelectorInterface> */
    private static function layers(): array
    {
        return \array_map(self::place(...), \array_keys(LayerTable::LAYERS));
    }

    private static function place(string $place): SelectorInterface
    {
        return LayerTable::isNamespace($place)
            ? Selector::inNamespace('Spindle\\' . $place)
            : Selector::classname('Spindle\\' . $place);
    }
}
