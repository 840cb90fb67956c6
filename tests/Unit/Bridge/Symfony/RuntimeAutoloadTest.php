<?php

declare(strict_types=1);

namespace Spindle\Tests\Unit\Bridge\Symfony;

use PHPUnit\Framework\TestCase;
use Spindle\Bridge\Symfony\RuntimeAutoload;

final class RuntimeAutoloadTest extends TestCase
{
    private const TEMPLATE = "<?php\n\$dir = %project_dir%;\n\$class = %runtime_class%;\n\$options = %runtime_options%;\nreturn [\$dir, \$class, \$options];\n";

    public function testProjectDirectoryIsWrittenRelativeToTheVendorDirectory(): void
    {
        self::assertSame('dirname(__DIR__, 1)', RuntimeAutoload::projectDirCode('/srv/app/vendor', '/srv/app'));
        self::assertSame("dirname(__DIR__, 2).'/app'", RuntimeAutoload::projectDirCode('/srv/lib/vendor', '/srv/app'));
        self::assertSame("__DIR__.'/app'", RuntimeAutoload::projectDirCode('/srv', '/srv/app'));
    }

    public function testRenderedFileGivesTheRuntimeClassAndOptions(): void
    {
        $dir = \sys_get_temp_dir() . '/spindle-runtime-autoload-' . \bin2hex(\random_bytes(4));
        \mkdir($dir . '/vendor', 0777, true);
        try {
            \file_put_contents($dir . '/vendor/autoload.php', "<?php\n");
            \file_put_contents($dir . '/template.php', self::TEMPLATE);
            $path = RuntimeAutoload::write($dir . '/vendor', $dir, [
                'class' => 'Spindle\\Bridge\\Symfony\\Runtime',
                'autoload_template' => 'template.php',
                'dotenv_path' => '.env.local',
            ]);
            self::assertSame(\realpath($dir . '/vendor') . '/autoload_runtime.php', $path);
            [$projectDir, $class, $options] = require $path;
            self::assertSame(\realpath($dir), $projectDir);
            self::assertSame('Spindle\\Bridge\\Symfony\\Runtime', $class);
            self::assertSame(['dotenv_path' => '.env.local', 'project_dir' => \realpath($dir)], $options);
        } finally {
            @\unlink($dir . '/vendor/autoload_runtime.php');
            @\unlink($dir . '/vendor/autoload.php');
            @\unlink($dir . '/template.php');
            @\rmdir($dir . '/vendor');
            @\rmdir($dir);
        }
    }

    public function testNothingIsWrittenWithoutAnAutoloader(): void
    {
        self::assertNull(RuntimeAutoload::write(\sys_get_temp_dir(), \sys_get_temp_dir(), []));
    }

    public function testDebianTemplateRendersToValidPhp(): void
    {
        if (!\is_file(RuntimeAutoload::DEBIAN_TEMPLATE)) {
            self::fail('php-symfony-runtime is not installed; scripts/test installs it');
        }
        $code = RuntimeAutoload::render((string) \file_get_contents(RuntimeAutoload::DEBIAN_TEMPLATE), '/srv/app/vendor', '/srv/app', []);
        self::assertStringContainsString("'Symfony\\\\Component\\\\Runtime\\\\SymfonyRuntime'", $code);
        self::assertStringContainsString("'project_dir' => dirname(__DIR__, 1),", $code);
        self::assertStringNotContainsString('%', \str_replace(['%s', '%1$s'], '', $code));
        $file = \tempnam(\sys_get_temp_dir(), 'spindle-runtime-lint-');
        self::assertIsString($file);
        \file_put_contents($file, $code);
        \exec(\escapeshellarg(\PHP_BINARY) . ' -l ' . \escapeshellarg($file) . ' 2>&1', $output, $status);
        \unlink($file);
        self::assertSame(0, $status, \implode("\n", $output));
    }
}
