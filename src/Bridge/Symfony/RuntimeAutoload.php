<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony;

use Symfony\Component\Runtime\SymfonyRuntime;

/**
 * Writes vendor/autoload_runtime.php, the file a Symfony front controller requires, as
 * symfony/runtime's Composer plugin does.
 *
 * An app that takes symfony/runtime from the package registry has the plugin and needs none of
 * this. An app that takes it from Debian's php-symfony-runtime has no plugin: it lists this
 * class as a Composer script instead,
 *
 *     "scripts": {"post-autoload-dump": ["Spindle\\Bridge\\Symfony\\RuntimeAutoload::dump"]}
 *
 * and gets the same file, rendered from the same template with the same "extra.runtime"
 * options (class, autoload_template, and the rest passed to the runtime).
 */
final class RuntimeAutoload
{
    /** Where Debian's php-symfony-runtime keeps the template. */
    public const DEBIAN_TEMPLATE = '/usr/share/php/Symfony/Component/Runtime/Internal/autoload_runtime.template';

    /**
     * The Composer script: takes the vendor directory, the project directory and
     * "extra.runtime" from the Composer\Script\Event it is given.
     */
    public static function dump(object $event): void
    {
        $composer = \method_exists($event, 'getComposer') ? $event->getComposer() : null;
        if (!\is_object($composer) || !\method_exists($composer, 'getConfig') || !\method_exists($composer, 'getPackage')) {
            throw new \InvalidArgumentException('RuntimeAutoload::dump() runs as a Composer script and takes its event');
        }
        $config = $composer->getConfig();
        $package = $composer->getPackage();
        $vendorDir = \is_object($config) && \method_exists($config, 'get') ? $config->get('vendor-dir') : null;
        $extra = \is_object($package) && \method_exists($package, 'getExtra') ? $package->getExtra() : [];
        if (!\is_string($vendorDir) || !\is_array($extra)) {
            throw new \InvalidArgumentException('The Composer event has no vendor directory');
        }
        $composerFile = \getenv('COMPOSER');
        $projectDir = \dirname((string) \realpath(\is_string($composerFile) && $composerFile !== '' ? $composerFile : 'composer.json'));
        $runtime = $extra['runtime'] ?? [];
        if ($runtime === false) {
            return;
        }
        self::write($vendorDir, $projectDir, \is_array($runtime) ? $runtime : []);
    }

    /**
     * Writes $vendorDir/autoload_runtime.php (when $vendorDir/autoload.php exists) and returns
     * its path, or null when there is no autoloader to wrap.
     *
     * @param array<mixed> $runtime the "extra.runtime" options
     */
    public static function write(string $vendorDir, string $projectDir, array $runtime): ?string
    {
        $vendorDir = (string) \realpath($vendorDir);
        if (!\is_file($vendorDir . '/autoload.php')) {
            return null;
        }
        $template = $runtime['autoload_template'] ?? self::defaultTemplate();
        if (!\is_string($template)) {
            throw new \InvalidArgumentException('extra.runtime.autoload_template must be a path');
        }
        if (!\str_starts_with($template, '/')) {
            $template = $projectDir . '/' . $template;
        }
        $source = @\file_get_contents($template);
        if (!\is_string($source)) {
            throw new \InvalidArgumentException(\sprintf('The runtime autoload template %s cannot be read', $template));
        }
        $code = self::render($source, $vendorDir, (string) \realpath($projectDir), $runtime);
        $path = $vendorDir . '/autoload_runtime.php';
        if (@\file_get_contents($path) !== $code && \file_put_contents($path, $code) === false) {
            throw new \RuntimeException(\sprintf('Cannot write %s', $path));
        }

        return $path;
    }

    /**
     * Fills in the template's placeholders as symfony/runtime's Composer plugin does.
     *
     * @param array<mixed> $runtime the "extra.runtime" options
     */
    public static function render(string $template, string $vendorDir, string $projectDir, array $runtime): string
    {
        $projectDirCode = self::projectDirCode($vendorDir, $projectDir);
        $class = $runtime['class'] ?? SymfonyRuntime::class;
        unset($runtime['class'], $runtime['autoload_template']);
        $options = \var_export($runtime, true);
        // var_export gives "array (\n  ...\n)": keep the entries, add project_dir.
        $entries = \substr($options, 7, -1);

        return \strtr($template, [
            '%project_dir%' => $projectDirCode,
            '%runtime_class%' => \var_export($class, true),
            '%runtime_options%' => '[' . $entries . "  'project_dir' => {$projectDirCode},\n]",
        ]);
    }

    /** PHP code for $projectDir as seen from a file in $vendorDir: "dirname(__DIR__, 1)". */
    public static function projectDirCode(string $vendorDir, string $projectDir): string
    {
        $from = \array_values(\array_filter(\explode('/', $vendorDir), static fn (string $part): bool => $part !== ''));
        $to = \array_values(\array_filter(\explode('/', $projectDir), static fn (string $part): bool => $part !== ''));
        $common = 0;
        while ($common < \count($from) && $common < \count($to) && $from[$common] === $to[$common]) {
            ++$common;
        }
        $up = \count($from) - $common;
        $down = \implode('/', \array_slice($to, $common));
        if ($up === 0) {
            return '__DIR__.' . \var_export('/' . $down, true);
        }

        return 'dirname(__DIR__, ' . $up . ')' . ($down !== '' ? '.' . \var_export('/' . $down, true) : '');
    }

    private static function defaultTemplate(): string
    {
        if (\class_exists(SymfonyRuntime::class)) {
            $file = (new \ReflectionClass(SymfonyRuntime::class))->getFileName();
            if (\is_string($file) && \is_file(\dirname($file) . '/Internal/autoload_runtime.template')) {
                return \dirname($file) . '/Internal/autoload_runtime.template';
            }
        }

        return self::DEBIAN_TEMPLATE;
    }
}
