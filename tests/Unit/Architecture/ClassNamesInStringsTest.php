<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Architecture;

use PHPUnit\Framework\TestCase;
use Spindle\Tests\Architecture\LayerTable;

/**
 * A third-party class named in a string ('Livewire\ComponentHookRegistry' in a table of statics,
 * a `class_exists('…')` check) is a dependency phpat cannot see: each such string in src/ must
 * stand where LayerTable::THIRD_PARTY allows its namespace, as a `::class` reference must.
 */
final class ClassNamesInStringsTest extends TestCase
{
    private const SRC = __DIR__ . '/../../../src';

    public function testThirdPartyClassNamesInStringsStayInTheirPlaces(): void
    {
        $misplaced = [];
        $found = 0;
        $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator(self::SRC, \FilesystemIterator::SKIP_DOTS));
        foreach ($files as $file) {
            \assert($file instanceof \SplFileInfo);
            if ($file->getExtension() !== 'php') {
                continue;
            }
            $place = \str_replace('/', '\\', \substr($file->getPathname(), \strlen(self::SRC) + 1, -4));
            foreach (self::classNames((string) \file_get_contents($file->getPathname())) as [$line, $name]) {
                $namespace = self::thirdPartyNamespace($name);
                if ($namespace === null) {
                    continue;
                }
                $found++;
                if (!self::allowed($namespace, $place)) {
                    $misplaced[] = \sprintf('src/%s.php:%d names %s', \str_replace('\\', '/', $place), $line, $name);
                }
            }
        }

        self::assertGreaterThan(0, $found, 'src/ names third-party classes in strings (Livewire\'s statics): the scan found none');
        self::assertSame([], $misplaced, 'third-party class names in strings outside the places docs/architecture.md allows');
    }

    public function testTheScanSeesAStringInAPlaceItsRowDoesNotAllow(): void
    {
        $source = "<?php\n\$a = ['Livewire\\\\Mechanisms\\\\HandleComponents\\\\HandleComponents' => [], \"Illuminate\\\\Support\\\\Str\"];\n\$b = 'not a class';\n";

        self::assertSame([[2, 'Livewire\Mechanisms\HandleComponents\HandleComponents'], [2, 'Illuminate\Support\Str']], self::classNames($source));
        self::assertSame('Livewire', self::thirdPartyNamespace('Livewire\Mechanisms\HandleComponents\HandleComponents'));
        self::assertSame('Symfony\Component\HttpKernel', self::thirdPartyNamespace('\Symfony\Component\HttpKernel\Kernel'));
        self::assertNull(self::thirdPartyNamespace('App\Models\User'));
        self::assertTrue(self::allowed('Livewire', 'Bridge\Laravel\SupportStatics'));
        self::assertFalse(self::allowed('Livewire', 'Server\Worker'));
        self::assertFalse(self::allowed('Illuminate', 'Bridge\Symfony\KernelFactory'));
    }

    /**
     * The strings of $source that look like a namespaced class name, with their lines.
     *
     * @return list<array{int, string}>
     */
    private static function classNames(string $source): array
    {
        $names = [];
        foreach (\token_get_all($source) as $token) {
            if (!\is_array($token) || $token[0] !== \T_CONSTANT_ENCAPSED_STRING) {
                continue;
            }
            // In either kind of quotes `\\` is one backslash, and `\` before a letter stays as it is.
            $value = \preg_replace('/\\\\([\\\\\'"])/', '$1', \substr($token[1], 1, -1));
            if (\preg_match('/^\\\\?[A-Z][A-Za-z0-9_]*(\\\\[A-Za-z_][A-Za-z0-9_]*)+$/', (string) $value) === 1) {
                $names[] = [$token[2], \ltrim((string) $value, '\\')];
            }
        }

        return $names;
    }

    /** The longest namespace of LayerTable::THIRD_PARTY that $class lies in, or null. */
    private static function thirdPartyNamespace(string $class): ?string
    {
        $class = \ltrim($class, '\\');
        $best = null;
        foreach (\array_keys(LayerTable::THIRD_PARTY) as $namespace) {
            if (\str_starts_with($class, $namespace . '\\') && ($best === null || \strlen($namespace) > \strlen($best))) {
                $best = $namespace;
            }
        }

        return $best;
    }

    private static function allowed(string $namespace, string $place): bool
    {
        foreach (LayerTable::THIRD_PARTY[$namespace] as $entry) {
            if (LayerTable::covers($entry, $place)) {
                return true;
            }
        }

        return false;
    }
}
