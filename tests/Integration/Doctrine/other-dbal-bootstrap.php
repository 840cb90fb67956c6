<?php

declare(strict_types=1);

/*
 * PHPUnit bootstrap that runs the Doctrine tests against a DBAL other than the one in vendor/
 * (DBAL 3, say): install it in a directory of its own and point SPINDLE_DBAL_VENDOR at that
 * directory's vendor/.
 *
 *     mkdir /tmp/dbal3 && cd /tmp/dbal3 && composer require doctrine/dbal:^3.10
 *     SPINDLE_DBAL_VENDOR=/tmp/dbal3/vendor vendor/bin/phpunit \
 *         --bootstrap tests/Integration/Doctrine/other-dbal-bootstrap.php \
 *         tests/Unit/Bridge/Doctrine tests/Integration/Doctrine
 *
 * Composer's class loaders are prepended, so the one loaded last, that of the other DBAL, wins.
 */

require __DIR__ . '/../../../vendor/autoload.php';

$vendor = getenv('SPINDLE_DBAL_VENDOR');
if ($vendor === false || !is_file($vendor . '/autoload.php')) {
    fwrite(STDERR, "SPINDLE_DBAL_VENDOR must name a vendor/ directory that holds doctrine/dbal\n");
    exit(1);
}
require $vendor . '/autoload.php';

$installed = $vendor . '/composer/installed.php';
$version = is_file($installed) ? ((require $installed)['versions']['doctrine/dbal']['pretty_version'] ?? '?') : '?';
fwrite(STDERR, "Doctrine DBAL $version from $vendor\n");
