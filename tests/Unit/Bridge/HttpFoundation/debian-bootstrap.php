<?php

declare(strict_types=1);

/*
 * Runs the HttpFoundation bridge tests against Debian's php-symfony-http-foundation (5.4), the
 * version framework apps load at run time, instead of the Composer one:
 *
 *   vendor/bin/phpunit --bootstrap tests/Unit/Bridge/HttpFoundation/debian-bootstrap.php tests/Unit/Bridge/HttpFoundation
 */

require \dirname(__DIR__, 4) . '/vendor/autoload.php';

\spl_autoload_register(static function (string $class): void {
    $prefix = 'Symfony\\Component\\HttpFoundation\\';
    if (\str_starts_with($class, $prefix)) {
        $file = '/usr/share/php/Symfony/Component/HttpFoundation/' . \strtr(\substr($class, \strlen($prefix)), '\\', '/') . '.php';
        if (\is_file($file)) {
            require $file;
        }
    }
}, true, true);
