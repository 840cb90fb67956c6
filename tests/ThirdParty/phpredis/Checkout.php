<?php

declare(strict_types=1);

namespace Spindle\Tests\ThirdParty\PhpRedis;

/**
 * Where phpredis's tests of one version are: `tests/ThirdParty/phpredis/<version>/` when this
 * repository has them (5.3.7, from Debian's `php-redis` source package), else a checkout of the
 * version's `tests/` from a git copy of phpredis's repository (SPINDLE_PHPREDIS_GIT, or the
 * machine's mirror), extracted once into the temp dir; null when neither is there.
 */
final class Checkout
{
    private const MIRROR = '/work/.mirror/phpredis+phpredis/repo';

    public static function directory(string $version): ?string
    {
        $version = \basename($version);
        $vendored = __DIR__ . '/' . $version;
        if (\is_file($vendored . '/RedisTest.php')) {
            return $vendored;
        }
        $git = \getenv('SPINDLE_PHPREDIS_GIT') ?: self::MIRROR;
        if (\preg_match('/^\d+\.\d+\.\d+$/D', $version) !== 1 || !\is_dir($git)) {
            return null;
        }
        $target = \sys_get_temp_dir() . '/spindle-phpredis-tests-' . $version;
        if (\is_file($target . '/tests/RedisTest.php')) {
            return $target . '/tests';
        }
        @\mkdir($target, 0700, true);
        $command = \sprintf('git --git-dir=%s archive %s tests | tar -x -C %s 2>/dev/null', \escapeshellarg($git), \escapeshellarg($version), \escapeshellarg($target));
        \exec($command, $output, $status);

        return $status === 0 && \is_file($target . '/tests/RedisTest.php') ? $target . '/tests' : null;
    }
}
