<?php

declare(strict_types=1);

// Served by php-fpm beside the blog (benchmarks/laravel.sh, location /__pdo-class): boots the
// Laravel app of $_SERVER['BLOG_DIR'] as its public/index.php does, with the pool's environment,
// and answers which PDO class its default connection opens, its PDO driver and whether the
// connection is persistent, e.g. "PDO pgsql persistent=0", then on a second line whether the
// pool runs with OPcache's JIT ("jit=on", from opcache_get_status()).

use Illuminate\Contracts\Http\Kernel;

$blog = $_SERVER['BLOG_DIR'] ?? '';
if (!is_string($blog) || !is_file($blog . '/bootstrap/app.php')) {
    http_response_code(500);
    echo 'BLOG_DIR is not a Laravel app';

    return;
}
require $blog . '/vendor/autoload.php';
$app = require $blog . '/bootstrap/app.php';
$app->make(Kernel::class)->bootstrap();
$pdo = $app->make('db')->connection()->getPdo();

header('Content-Type: text/plain');
$status = function_exists('opcache_get_status') ? opcache_get_status(false) : false;
$jit = is_array($status) && ($status['jit']['on'] ?? false) === true;
echo $pdo::class, ' ', $pdo->getAttribute(PDO::ATTR_DRIVER_NAME), ' persistent=', $pdo->getAttribute(PDO::ATTR_PERSISTENT) ? 1 : 0, "\n";
echo 'jit=', $jit ? 'on' : 'off';
